"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { identityProvidersQuery } from "@/lib/queries/admin-identity";
import { useLinkUserIdentity, userIdentityQuery, useUnlinkUserIdentity } from "@/lib/queries/identity-links";
import styles from "./people.module.css";
import { describePeopleError } from "./shared";

/**
 * The single sign-on identity that opens an account (administrators, in the user's dialog). An
 * existing account is never linked automatically to an administrator's or manager's, or to one
 * with a password (issue 25): here an administrator links it by the provider's identifier of
 * the person (OIDC `sub`, SAML NameID), or removes the link. The account's owner is mailed.
 */
export function UserIdentity({ userId }: { userId: string }) {
  const t = useT();
  const { data } = useQuery(userIdentityQuery(userId));
  const { data: providers } = useQuery(identityProvidersQuery());
  const link = useLinkUserIdentity(userId);
  const unlink = useUnlinkUserIdentity(userId);
  const sso = (providers?.objects ?? []).filter((p) => p.type === "oidc" || p.type === "saml2");
  const [providerId, setProviderId] = useState("");
  const [externalId, setExternalId] = useState("");
  if (!data) return null;
  const identity = data.identity;
  // A directory account is its directory's: the dialog says so already.
  if (identity && identity.type !== "oidc" && identity.type !== "saml2") return null;
  if (!identity && sso.length === 0) return null;
  const chosen = providerId || sso[0]?.id || "";
  const failed = link.error ?? unlink.error;

  function submitLink() {
    if (!chosen || !externalId.trim()) return;
    link.mutate({ provider_id: chosen, external_id: externalId.trim() }, { onSuccess: () => setExternalId("") });
  }
  // The field sits in the user's form: Enter links rather than saving the whole user.
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    submitLink();
  }

  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{t("adminPeople.identity.title")}</legend>
      {identity ? (
        <div className={styles.grid}>
          <p data-testid="user-identity">{t("adminPeople.identity.linked", { name: identity.provider_name, id: identity.external_id })}</p>
          <Button variant="secondary" size="small" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {t("adminPeople.identity.unlink")}
          </Button>
        </div>
      ) : (
        <>
          <p className={styles.hint}>{t("adminPeople.identity.none")}</p>
          <div className={styles.grid}>
            <Select label={t("adminPeople.identity.provider")} value={chosen} onChange={(e) => setProviderId(e.target.value)} options={sso.map((p) => ({ value: p.id, label: p.name }))} />
            <TextField label={t("adminPeople.identity.externalId")} hint={t("adminPeople.identity.hint")} value={externalId} onChange={(e) => setExternalId(e.target.value)} onKeyDown={onKeyDown} autoComplete="off" spellCheck={false} />
          </div>
          <div>
            <Button variant="secondary" size="small" onClick={submitLink} disabled={link.isPending || !externalId.trim()}>
              {t("adminPeople.identity.link")}
            </Button>
          </div>
        </>
      )}
      <FormStatus status={failed ? { tone: "error", message: describePeopleError(failed, t) } : null} />
    </fieldset>
  );
}
