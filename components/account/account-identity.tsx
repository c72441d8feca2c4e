"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useSsoFailure } from "@/components/auth/sso-sign-in";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import type { SsoProviderSummary } from "@/lib/contracts/sso";
import { useT } from "@/lib/i18n/provider";
import { accountIdentityQuery, useConnectIdentity } from "@/lib/queries/identity-links";
import { useMfaState } from "@/lib/queries/mfa";
import { useSsoProviders } from "@/lib/queries/sso";
import styles from "./account.module.css";
import { ReauthDialog } from "./reauth-dialog";

/**
 * "Sign-in providers": the single sign-on provider that opens this account, or a button per
 * provider to connect one. An existing account is never linked to a provider automatically
 * (issue 25): its owner connects it here, confirming it is them (the re-authentication of api.md), and comes back from
 * the provider to this page. Directory accounts are their directory's: nothing to show.
 */
export function AccountIdentity() {
  const t = useT();
  const { data } = useQuery(accountIdentityQuery());
  const { data: providers } = useSsoProviders();
  const connected = useSearchParams()?.get("sso_connected");
  const failure = useSsoFailure();
  const [connecting, setConnecting] = useState<SsoProviderSummary | null>(null);
  if (!data) return null;
  const identity = data.identity;
  if (identity && identity.type !== "oidc" && identity.type !== "saml2") return null;
  if (!identity && !providers?.length) return null;

  return (
    <Card title={t("account.identity")} description={t("account.identityHelp")}>
      {identity ? (
        <p data-testid="account-identity">{t("account.identityLinked", { name: identity.provider_name })}</p>
      ) : (
        <div className={styles.actions}>
          {providers!.map((provider) => (
            <Button key={provider.id} variant="secondary" onClick={() => setConnecting(provider)} data-testid={`connect-${provider.id}`}>
              {t("account.identityConnect", { name: provider.name })}
            </Button>
          ))}
        </div>
      )}
      <FormStatus status={connected ? { tone: "success", message: t("account.identityConnected") } : failure} />
      {connecting && <ConnectDialog provider={connecting} onClose={() => setConnecting(null)} />}
    </Card>
  );
}

/** The owner confirms it is them (the password, or an app code); the browser then leaves for the provider. */
function ConnectDialog({ provider, onClose }: { provider: SsoProviderSummary; onClose: () => void }) {
  const t = useT();
  const connect = useConnectIdentity();
  const mfa = useMfaState();
  return (
    <ReauthDialog
      title={t("account.identityConnect", { name: provider.name })}
      confirmLabel={t("account.identityContinue")}
      method={mfa.data?.reauth ?? "password"}
      onConfirm={(reauth) => connect.mutateAsync({ provider_id: provider.id, ...reauth })}
      onClose={onClose}
    >
      <p>{t("account.identityConfirm", { name: provider.name })}</p>
    </ReauthDialog>
  );
}
