"use client";

import { useQuery } from "@tanstack/react-query";
import { PageHeader } from "@/components/page-header";
import { useT } from "@/lib/i18n/provider";
import { accountQuery } from "@/lib/queries/account";
import { AccountAppPasswords } from "./account-app-passwords";
import { AccountApi } from "./account-api";
import { AccountApplications } from "./account-applications";
import { AccountIdentity } from "./account-identity";
import { AccountLanguageForm } from "./account-language-form";
import { AccountPasswordForm } from "./account-password-form";
import { AccountPictureForm } from "./account-picture-form";
import { AccountProfileForm } from "./account-profile-form";
import { AccountSessions } from "./account-sessions";
import { AccountStorage } from "./account-storage";
import { AccountWebdav } from "./account-webdav";
import { MfaSection } from "./mfa-section";
import styles from "./account.module.css";

export function AccountScreen({ passwordMinLength }: { passwordMinLength: number }) {
  const t = useT();
  const { data: account } = useQuery(accountQuery());
  if (!account) return <p className="muted">{t("common.loading")}</p>;
  // The directory owns its accounts; can_edit_options covers the profile and picture, never the language or password.
  const locked = account.ldap ? t("account.directory") : account.can_edit_options ? null : t("account.locked");
  return (
    <>
      <PageHeader title={t("account.title")} subtitle={t("account.subtitle")} />
      <div className={styles.sections}>
        <AccountProfileForm account={account} locked={locked} />
        <AccountStorage />
        <AccountLanguageForm account={account} locked={account.ldap} />
        {!account.ldap && <AccountPasswordForm minLength={passwordMinLength} />}
        <MfaSection />
        <AccountIdentity />
        <AccountPictureForm account={account} locked={Boolean(locked)} />
        <AccountWebdav login={account.login} />
        <AccountAppPasswords />
        <AccountSessions />
        <AccountApplications />
        <AccountApi />
      </div>
    </>
  );
}
