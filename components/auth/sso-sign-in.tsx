"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import buttonStyles from "@/components/ui/button.module.css";
import type { Status } from "@/components/ui/form-status";
import type { SecondStep } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { useSsoProviders } from "@/lib/queries/sso";
import styles from "./sso-sign-in.module.css";

/**
 * "Sign in with <name>" for each enabled OpenID Connect or SAML provider. Each is a plain link:
 * the browser leaves for the provider (GET /api/sso/(id)/login) and comes back signed in, to `next`.
 */
export function SsoSignIn({ next }: { next: string }) {
  const t = useT();
  const { data: providers } = useSsoProviders();
  if (!providers?.length) return null;
  return (
    <section className={styles.sso} aria-label={t("sso.region")}>
      <div className={styles.divider}>{t("sso.or")}</div>
      {providers.map((provider) => (
        <a
          key={provider.id}
          className={[buttonStyles.button, buttonStyles.secondary, buttonStyles.block, styles.provider].join(" ")}
          href={next === "/" ? provider.login_url : `${provider.login_url}?next=${encodeURIComponent(next)}`}
          data-testid={`sso-${provider.id}`}
        >
          {t("sso.signInWith", { name: provider.name })}
        </a>
      ))}
    </section>
  );
}

// The reasons lib/server/sso/sso-failure.ts sends back in `?sso_error=`, in words.
const FAILURES: Record<string, MessageKey> = {
  sso_state: "sso.error.state",
  sso_nonce: "sso.error.refused",
  sso_assertion: "sso.error.refused",
  sso_replay: "sso.error.state",
  sso_idp_initiated: "sso.error.refused",
  sso_provider: "sso.error.provider",
  sso_no_account: "sso.error.noAccount",
  sso_account_conflict: "sso.error.conflict",
  sso_account_exists: "sso.error.accountExists",
  sso_unavailable: "sso.error.unavailable",
  account_inactive: "signIn.inactive",
  account_expired: "signIn.expired",
  connection_not_allowed: "signIn.notAllowed",
};

/** Why a single sign-on just failed, for the sign-in form's banner; null when none did. */
export function useSsoFailure(): Status {
  const t = useT();
  const reason = useSearchParams()?.get("sso_error");
  if (!reason) return null;
  return { tone: "error", message: t(FAILURES[reason] ?? "error.generic") };
}

/**
 * A single sign-on whose account has a second factor comes back to /login with its mfa_token in
 * the fragment (never sent to a server); read once, then taken off the address bar.
 */
export function useSsoSecondStep(): SecondStep | null {
  const [step, setStep] = useState<SecondStep | null>(null);
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const mfaToken = fragment.get("mfa_token");
    if (!mfaToken) return;
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the fragment only exists in the browser, after hydration
    setStep({ mfaToken, methods: (fragment.get("methods") ?? "").split(",").filter(Boolean) });
  }, []);
  return step;
}
