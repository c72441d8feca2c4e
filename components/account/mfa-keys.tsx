"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { useAddSecurityKey, useRemoveSecurityKey, type MfaState, type ReauthInput } from "@/lib/queries/mfa";
import { ReauthDialog } from "./reauth-dialog";
import styles from "./mfa.module.css";

/** Security keys (WebAuthn): each under a name the owner chooses, removable one by one; both ways re-authenticated. */
export function MfaKeys({ state, onCodes }: { state: MfaState; onCodes: (codes: string[]) => void }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const add = useAddSecurityKey();
  const remove = useRemoveSecurityKey();
  const [adding, setAdding] = useState(false);
  /** The name of the key to register once the person is re-authenticated. */
  const [naming, setNaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  if (state.webauthn.length === 0 && !state.can.webauthn) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (name) setNaming(name);
  }

  async function register(name: string, reauth: ReauthInput) {
    const result = await add.mutateAsync({ name, reauth });
    setAdding(false);
    if (result && "recovery_codes" in result && result.recovery_codes) onCodes(result.recovery_codes);
  }

  // The browser's own refusal (cancelled, timed out, no key): a DOMException, not an API answer.
  const browserRefusal = (e: unknown) => (e instanceof ApiError ? null : t("mfa.keyCancelled"));
  return (
    <div className={styles.block}>
      <div className={styles.blockHead}>
        <h3>{t("mfa.keys")}</h3>
        <span className={state.webauthn.length ? styles.on : styles.state}>{state.webauthn.length ? t("mfa.keysCount", { count: state.webauthn.length }) : t("mfa.off")}</span>
      </div>
      <p className={styles.state}>{t("mfa.keysHelp")}</p>
      {state.webauthn.length > 0 && (
        <ul className={styles.keys} aria-label={t("mfa.keys")}>
          {state.webauthn.map((key) => (
            <li key={key.id}>
              <span>
                <span className={styles.keyName}>{key.name}</span>{" "}
                <span className={styles.state}>{t("mfa.keyAdded", { date: new Date(key.creation).toLocaleDateString(locale) })}</span>
              </span>
              <Button variant="secondary" size="small" aria-label={t("mfa.keyRemove", { name: key.name })} onClick={() => setRemoving(key)} disabled={remove.isPending}>
                {t("mfa.remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {state.can.webauthn &&
        (adding ? (
          <form className={styles.fieldRow} onSubmit={submit} noValidate>
            <TextField label={t("mfa.keyName")} name="name" maxLength={100} required autoFocus hint={t("mfa.keyNameHint")} />
            <Button type="submit" disabled={add.isPending}>
              {t("mfa.continue")}
            </Button>
            <Button variant="ghost" onClick={() => setAdding(false)}>
              {t("common.cancel")}
            </Button>
          </form>
        ) : (
          <div className={styles.row}>
            <Button size="small" onClick={() => (add.reset(), setAdding(true))}>
              {t("mfa.keyAdd")}
            </Button>
          </div>
        ))}
      {naming !== null && (
        <ReauthDialog
          title={t("mfa.keyAddTitle", { name: naming })}
          confirmLabel={add.isPending ? t("mfa.keyTouch") : t("mfa.keyRegister")}
          method={state.reauth}
          describe={browserRefusal}
          onConfirm={(reauth) => register(naming, reauth)}
          onClose={() => setNaming(null)}
        />
      )}
      {removing && (
        <ReauthDialog
          title={t("mfa.keyRemoveTitle", { name: removing.name })}
          confirmLabel={t("mfa.remove")}
          method={state.reauth}
          danger
          onConfirm={(reauth) => remove.mutateAsync({ id: removing.id, reauth })}
          onClose={() => setRemoving(null)}
        />
      )}
    </div>
  );
}
