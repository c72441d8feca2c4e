"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { htmlLang, LANGUAGE_ENDONYMS, UI_LANGUAGES } from "@/lib/i18n/languages";
import { useT } from "@/lib/i18n/provider";
import { useUpdateAccount, type Account } from "@/lib/queries/account";
import styles from "./account.module.css";
import { describeError } from "./describe-error";

/** Saving switches the interface at once: the shell reads the language from the updated account. */
export function AccountLanguageForm({ account, locked }: { account: Account; locked: boolean }) {
  const t = useT();
  const router = useRouter();
  const update = useUpdateAccount();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const language = String(new FormData(event.currentTarget).get("language")) as Account["language"];
    // The server-rendered parts (page title, <html lang>) follow on refresh.
    update.mutate({ language }, { onSuccess: () => router.refresh() });
  }

  const options = [
    { value: "auto", label: t("account.languageAuto") },
    ...UI_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_ENDONYMS[code], lang: htmlLang(code) })),
  ];
  const status: Status = update.isSuccess ? { tone: "success", message: t("account.languageSaved") } : update.isError ? { tone: "error", message: describeError(update.error, t) } : null;

  return (
    <Card title={t("account.language")} description={t("account.languageHelp")}>
      <form className={styles.form} onSubmit={submit} onChange={() => {
        if (!update.isIdle) update.reset();
      }}>
        <div className={styles.inline}>
          <Select label={t("account.languageLabel")} name="language" defaultValue={account.language} options={options} disabled={locked} />
          <Button type="submit" disabled={locked || update.isPending}>
            {update.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </div>
        <FormStatus status={status} />
      </form>
    </Card>
  );
}
