import "server-only";
/** The audit trail's words, in the two languages of the platform's mails (render-mail.ts). */
export type AuditLocale = "en" | "fr";

type Labels = {
  title: string;
  summary: string;
  request: string;
  name: string;
  status: string;
  initiator: string;
  created: string;
  completed: string;
  documents: string;
  document: string;
  sha256Before: string;
  sha256After: string;
  notSigned: string;
  actors: string;
  type: string;
  email: string;
  signedAt: string;
  activities: string;
  date: string;
  action: string;
  actor: string;
  address: string;
  userAgent: string;
  none: string;
  page: (n: number, total: number) => string;
  generated: (date: string) => string;
  datesNote: string;
  words: Record<string, string>;
};

const EN: Labels = {
  title: "Audit trail",
  summary: "Signature request",
  request: "Request",
  name: "Name",
  status: "Status",
  initiator: "Initiator",
  created: "Created",
  completed: "Completed",
  documents: "Documents",
  document: "Document",
  sha256Before: "SHA-256 before signing",
  sha256After: "SHA-256 after signing",
  notSigned: "not signed yet",
  actors: "Participants",
  type: "Role",
  email: "Email",
  signedAt: "Signed at",
  activities: "Activities",
  date: "Date (UTC)",
  action: "Action",
  actor: "By",
  address: "Address",
  userAgent: "User agent",
  none: "—",
  page: (n, total) => `Page ${n} of ${total}`,
  generated: (date) => `Generated on ${date} (UTC)`,
  datesNote: "All dates are UTC, in ISO 8601.",
  words: {
    "signature_request.invitationCreated": "Invitation created",
    "signature_request.invitationSent": "Invitation sent",
    "signer.link_opened": "Signing link opened",
    "signer.signed": "Signed",
    "signer.refused": "Refused to sign",
    "approver.approved": "Approved",
    "signer.reminded": "Reminder sent",
    "signature_request.done": "Request completed and sealed",
    "signature_request.expired": "Request expired",
    "signature_request.cancelled": "Request cancelled",
    draft: "draft",
    ongoing: "ongoing",
    done: "done",
    refused: "refused",
    expired: "expired",
    cancelled: "cancelled",
    initiated: "invited",
    notified: "notified",
    opened: "opened",
    signer: "signer",
    approver: "approver",
    follower: "follower",
  },
};

const FR: Labels = {
  title: "Piste d'audit",
  summary: "Demande de signature",
  request: "Demande",
  name: "Nom",
  status: "Statut",
  initiator: "Initiateur",
  created: "Créée le",
  completed: "Terminée le",
  documents: "Documents",
  document: "Document",
  sha256Before: "SHA-256 avant signature",
  sha256After: "SHA-256 après signature",
  notSigned: "pas encore signé",
  actors: "Participants",
  type: "Rôle",
  email: "E-mail",
  signedAt: "Signé le",
  activities: "Activités",
  date: "Date (UTC)",
  action: "Action",
  actor: "Par",
  address: "Adresse",
  userAgent: "Navigateur",
  none: "—",
  page: (n, total) => `Page ${n} sur ${total}`,
  generated: (date) => `Généré le ${date} (UTC)`,
  datesNote: "Toutes les dates sont en UTC, au format ISO 8601.",
  words: {
    "signature_request.invitationCreated": "Invitation créée",
    "signature_request.invitationSent": "Invitation envoyée",
    "signer.link_opened": "Lien de signature ouvert",
    "signer.signed": "Signé",
    "signer.refused": "Signature refusée",
    "approver.approved": "Approuvé",
    "signer.reminded": "Relance envoyée",
    "signature_request.done": "Demande terminée et scellée",
    "signature_request.expired": "Demande expirée",
    "signature_request.cancelled": "Demande annulée",
    draft: "brouillon",
    ongoing: "en cours",
    done: "terminé",
    refused: "refusé",
    expired: "expiré",
    cancelled: "annulé",
    initiated: "invité",
    notified: "notifié",
    opened: "ouvert",
    signer: "signataire",
    approver: "approbateur",
    follower: "observateur",
  },
};

export function auditLabels(locale: AuditLocale | undefined): Labels {
  return locale === "fr" ? FR : EN;
}

/** A code or status in plain words; one this table does not know is shown as it is. */
export function plainWords(labels: Labels, code: string): string {
  return labels.words[code] ?? code;
}
