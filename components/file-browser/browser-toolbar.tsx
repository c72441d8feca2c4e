"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import styles from "./file-browser.module.css";
import { actionLabel, type Action } from "./item-menu";

type Props = {
  /** The selection's actions; none: the creation buttons show, where the caller may create. */
  actions: Action[];
  selectedCount: number;
  onRun: (action: Action) => void;
  canCreate: boolean;
  onNewFolder: () => void;
  onUpload: () => void;
  onUploadFolder: () => void;
  onFromTemplate: () => void;
};

// The toolbar keeps to one line: the rarer actions (templates, archiving) are in the item's menu only.
const IN_MENU_ONLY: Action[] = ["template", "archive"];

/**
 * One line whatever is selected: the selection's actions take the place of the creation buttons,
 * so the list never moves between the two clicks of a double click.
 */
export function BrowserToolbar({ actions, selectedCount, onRun, canCreate, onNewFolder, onUpload, onUploadFolder, onFromTemplate }: Props) {
  const t = useT();
  const shown = actions.filter((action) => !IN_MENU_ONLY.includes(action));
  return (
    <div role="toolbar" aria-label={t("files.toolbar")} className={styles.toolbar}>
      {shown.length > 0 ? (
        <div className={styles.selectionActions}>
          <span className={styles.count}>{t("files.selected", { count: selectedCount })}</span>
          {shown.map((action) => (
            <Button key={action} size="small" variant={action === "delete" ? "danger" : "ghost"} onClick={() => onRun(action)}>
              {t(actionLabel(action))}
            </Button>
          ))}
        </div>
      ) : (
        canCreate && (
          <>
            <Button size="small" onClick={onNewFolder}>
              {t("files.newFolder")}
            </Button>
            <Button size="small" variant="secondary" onClick={onUpload}>
              {t("files.upload")}
            </Button>
            <Button size="small" variant="secondary" onClick={onUploadFolder}>
              {t("files.uploadFolder")}
            </Button>
            <Button size="small" variant="secondary" onClick={onFromTemplate}>
              {t("templates.newFromTemplate")}
            </Button>
          </>
        )
      )}
    </div>
  );
}
