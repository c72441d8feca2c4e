import type { Status } from "@/components/ui/form-status";
import type { IdentityProviderType, TestDetailsResponse } from "@/lib/contracts/identity-providers";
import type { MessageKey } from "@/lib/i18n/catalogues/en";
import type { Translate } from "@/lib/i18n/translate";
import type { IdentityProvider } from "@/lib/queries/admin-identity";

const TYPES: Record<IdentityProviderType, MessageKey> = {
  ldap: "admin.identity.type.ldap",
  adds: "admin.identity.type.adds",
  domino: "admin.identity.type.domino",
  "ms-graph": "admin.identity.type.msGraph",
  oidc: "admin.identity.type.oidc",
  saml2: "admin.identity.type.saml2",
};
export const typeKey = (type: IdentityProviderType): MessageKey => TYPES[type];

const STATES: Record<string, MessageKey> = {
  disabled: "admin.identity.state.disabled",
  never_synced: "admin.identity.state.neverSynced",
  ok: "admin.identity.state.ok",
  warning: "admin.identity.state.warning",
  error: "admin.identity.state.error",
  syncing: "admin.identity.state.syncing",
};
export const statusKey = (status: string): MessageKey => STATES[status] ?? "admin.identity.state.ok";

/** The last synchronisation's counters in words, or its error. */
export function syncSummary(p: IdentityProvider, t: Translate): string {
  const r = (p.last_sync_result ?? {}) as Record<string, unknown>;
  if (p.last_sync_status === "error") return typeof r.error === "string" ? r.error : "";
  const n = (key: string) => (typeof r[key] === "number" ? (r[key] as number) : 0);
  const conflicts = Array.isArray(r.conflicts) ? r.conflicts.length : 0;
  const text = t("admin.identity.syncSummary", { created: n("users_created"), updated: n("users_updated"), deactivated: n("users_deactivated") });
  return conflicts ? `${text} ${t("admin.identity.syncConflicts", { count: conflicts })}` : text;
}

export function describeTest(outcome: TestDetailsResponse, name: string, t: Translate): Status {
  if (outcome.result) return { tone: "success", message: t("admin.identity.testOk", { name }) };
  return { tone: "error", message: t("admin.identity.testFailed", { name, reason: outcome.details.reason }) };
}
