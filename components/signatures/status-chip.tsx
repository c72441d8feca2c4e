"use client";

import type { ActorStatus, ActorType, SignatureActivityCode, SignatureStatus } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import styles from "./signatures.module.css";

export const REQUEST_STATUS_LABELS: Record<SignatureStatus, MessageKey> = {
  draft: "signatures.status.draft",
  ongoing: "signatures.status.ongoing",
  done: "signatures.status.done",
  refused: "signatures.status.refused",
  expired: "signatures.status.expired",
  cancelled: "signatures.status.cancelled",
};

export const ACTOR_STATUS_LABELS: Record<ActorStatus, MessageKey> = {
  initiated: "signatures.actorStatus.initiated",
  notified: "signatures.actorStatus.notified",
  opened: "signatures.actorStatus.opened",
  done: "signatures.actorStatus.done",
  refused: "signatures.actorStatus.refused",
};

export const ACTOR_TYPE_LABELS: Record<ActorType, MessageKey> = {
  signer: "signatures.actorType.signer",
  approver: "signatures.actorType.approver",
  follower: "signatures.actorType.follower",
};

export const ACTIVITY_LABELS: Record<SignatureActivityCode, MessageKey> = {
  "signature_request.invitationCreated": "signatures.activity.invitationCreated",
  "signature_request.invitationSent": "signatures.activity.invitationSent",
  "signer.link_opened": "signatures.activity.linkOpened",
  "signer.signed": "signatures.activity.signed",
  "signer.refused": "signatures.activity.refused",
  "approver.approved": "signatures.activity.approved",
  "signer.reminded": "signatures.activity.reminded",
  "signature_request.done": "signatures.activity.done",
  "signature_request.expired": "signatures.activity.expired",
  "signature_request.cancelled": "signatures.activity.cancelled",
};

const TONE: Record<SignatureStatus | ActorStatus, string> = {
  draft: styles.chipNeutral,
  initiated: styles.chipNeutral,
  ongoing: styles.chipProgress,
  notified: styles.chipProgress,
  opened: styles.chipProgress,
  done: styles.chipOk,
  refused: styles.chipDanger,
  expired: styles.chipMuted,
  cancelled: styles.chipMuted,
};

/** A request's status as a coloured chip; the word carries the meaning, the colour only helps. */
export function RequestStatusChip({ status }: { status: SignatureStatus }) {
  const t = useT();
  return (
    <span className={`${styles.chip} ${TONE[status]}`} data-testid="request-status">
      {t(REQUEST_STATUS_LABELS[status])}
    </span>
  );
}

export function ActorStatusChip({ status }: { status: ActorStatus }) {
  const t = useT();
  return (
    <span className={`${styles.chip} ${TONE[status]}`} data-testid="actor-status">
      {t(ACTOR_STATUS_LABELS[status])}
    </span>
  );
}
