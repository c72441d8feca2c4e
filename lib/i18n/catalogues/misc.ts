/**
 * The strings of tags, file templates and archives (issue 17), in every language. Each catalogue
 * spreads its part, so that these screens add one line to the shared catalogues.
 */
export const miscEn = {
  "tags.title": "Tags",
  "tags.none": "No tags yet.",
  "tags.addLabel": "Add a tag",
  "tags.addPlaceholder": "Tag name",
  "tags.privateOption": "Private",
  "tags.add": "Add",
  "tags.added": "Tag {name} added.",
  "tags.remove": "Remove the tag {name}",
  "tags.private": "(private)",
  "tags.privateChip": "{name} (private)",
  "tags.rowLabel": "Tags: {names}",
  "tags.filter": "Tags",
  "tags.filterPick": "Add a tag…",
} as const;

type MiscMessages = Record<keyof typeof miscEn, string>;

export const miscFr: MiscMessages = {
  "tags.title": "Étiquettes",
  "tags.none": "Aucune étiquette.",
  "tags.addLabel": "Ajouter une étiquette",
  "tags.addPlaceholder": "Nom de l’étiquette",
  "tags.privateOption": "Privée",
  "tags.add": "Ajouter",
  "tags.added": "Étiquette {name} ajoutée.",
  "tags.remove": "Retirer l’étiquette {name}",
  "tags.private": "(privée)",
  "tags.privateChip": "{name} (privée)",
  "tags.rowLabel": "Étiquettes : {names}",
  "tags.filter": "Étiquettes",
  "tags.filterPick": "Ajouter une étiquette…",
};

export const miscEs: MiscMessages = {
  "tags.title": "Etiquetas",
  "tags.none": "Todavía no hay etiquetas.",
  "tags.addLabel": "Añadir una etiqueta",
  "tags.addPlaceholder": "Nombre de la etiqueta",
  "tags.privateOption": "Privada",
  "tags.add": "Añadir",
  "tags.added": "Etiqueta {name} añadida.",
  "tags.remove": "Quitar la etiqueta {name}",
  "tags.private": "(privada)",
  "tags.privateChip": "{name} (privada)",
  "tags.rowLabel": "Etiquetas: {names}",
  "tags.filter": "Etiquetas",
  "tags.filterPick": "Añadir una etiqueta…",
};

export const miscPt: MiscMessages = {
  "tags.title": "Etiquetas",
  "tags.none": "Ainda não há etiquetas.",
  "tags.addLabel": "Adicionar uma etiqueta",
  "tags.addPlaceholder": "Nome da etiqueta",
  "tags.privateOption": "Privada",
  "tags.add": "Adicionar",
  "tags.added": "Etiqueta {name} adicionada.",
  "tags.remove": "Remover a etiqueta {name}",
  "tags.private": "(privada)",
  "tags.privateChip": "{name} (privada)",
  "tags.rowLabel": "Etiquetas: {names}",
  "tags.filter": "Etiquetas",
  "tags.filterPick": "Adicionar uma etiqueta…",
};

export const miscCn: MiscMessages = {
  "tags.title": "标签",
  "tags.none": "暂无标签。",
  "tags.addLabel": "添加标签",
  "tags.addPlaceholder": "标签名称",
  "tags.privateOption": "私有",
  "tags.add": "添加",
  "tags.added": "已添加标签 {name}。",
  "tags.remove": "移除标签 {name}",
  "tags.private": "（私有）",
  "tags.privateChip": "{name}（私有）",
  "tags.rowLabel": "标签：{names}",
  "tags.filter": "标签",
  "tags.filterPick": "添加标签…",
};

export const miscDe: MiscMessages = {
  "tags.title": "Schlagwörter",
  "tags.none": "Noch keine Schlagwörter.",
  "tags.addLabel": "Schlagwort hinzufügen",
  "tags.addPlaceholder": "Name des Schlagworts",
  "tags.privateOption": "Privat",
  "tags.add": "Hinzufügen",
  "tags.added": "Schlagwort {name} hinzugefügt.",
  "tags.remove": "Schlagwort {name} entfernen",
  "tags.private": "(privat)",
  "tags.privateChip": "{name} (privat)",
  "tags.rowLabel": "Schlagwörter: {names}",
  "tags.filter": "Schlagwörter",
  "tags.filterPick": "Schlagwort hinzufügen…",
};

export const miscIt: MiscMessages = {
  "tags.title": "Etichette",
  "tags.none": "Ancora nessuna etichetta.",
  "tags.addLabel": "Aggiungi un’etichetta",
  "tags.addPlaceholder": "Nome dell’etichetta",
  "tags.privateOption": "Privata",
  "tags.add": "Aggiungi",
  "tags.added": "Etichetta {name} aggiunta.",
  "tags.remove": "Rimuovi l’etichetta {name}",
  "tags.private": "(privata)",
  "tags.privateChip": "{name} (privata)",
  "tags.rowLabel": "Etichette: {names}",
  "tags.filter": "Etichette",
  "tags.filterPick": "Aggiungi un’etichetta…",
};
