"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { AuthCard, authStyles as styles } from "@/components/auth/auth-card";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import type { InvitationPreview } from "@/lib/contracts/invitations";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { useCompleteInvitation } from "@/lib/queries/invitations";

export type InviteState = { kind: "open"; preview: InvitationPreview } | { kind: "unknown" | "expired" | "used" | "unavailable" };
type Closed = Exclude<InviteState["kind"], "open">;

const CLOSED_MESSAGES: Record<Closed, MessageKey> = {
  unknown: "invite.unknown",
  expired: "invite.expired",
  used: "invite.used",
  unavailable: "invite.unavailable",
};

/** What a refusal of the completion means for the page: the key itself no longer works, or one field is wrong. */
function closedBy(error: ApiError | null): Closed | null {
  if (!error) return null;
  if (error.code === "invitation_expired") return "expired";
  if (error.code === "invitation_used") return "used";
  if (error.status === 404) return "unknown";
  if (error.code === "forbidden") return "unavailable";
  return null;
}

export function InviteScreen({ platformName, inviteKey, minLength, state }: { platformName: string; inviteKey: string; minLength: number; state: InviteState }) {
  const t = useT();
  const router = useRouter();
  const complete = useCompleteInvitation(inviteKey);
  const [mismatch, setMismatch] = useState(false);
  const [missingLogin, setMissingLogin] = useState(false);

  const error = complete.error instanceof ApiError ? complete.error : null;
  const closed = state.kind === "open" ? closedBy(error) : state.kind;
  if (closed || state.kind !== "open") {
    return (
      <AuthCard platformName={platformName} title={t("invite.unavailableTitle")}>
        <FormStatus status={{ tone: closed === "used" ? "info" : "error", message: t(CLOSED_MESSAGES[closed ?? "unavailable"]) }} banner />
        <Link href="/login">{t("invite.signIn")}</Link>
      </AuthCard>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? "").trim();
    const password = String(form.get("password") ?? "");
    const isMismatch = password !== String(form.get("confirm") ?? "");
    setMismatch(isMismatch);
    setMissingLogin(!field("login"));
    if (!field("login") || !password || isMismatch) return;
    const input = { login: field("login"), password, firstname: field("firstname") || undefined, lastname: field("lastname") || undefined };
    // The sign-in page then says the account is ready.
    complete.mutate(input, { onSuccess: () => router.push("/login?invited=1") });
  }

  const { preview } = state;
  const weak = error?.code === "weak_password";
  const loginError = missingLogin
    ? t("common.required")
    : error?.status === 409
      ? t("invite.loginTaken")
      : error?.status === 400 && error.fields.includes("login")
        ? t("invite.loginInvalid")
        : null;
  const status: Status =
    complete.isError && !weak && !loginError ? { tone: "error", message: error?.status === 0 ? t("error.network") : t("error.generic") } : null;
  const busy = complete.isPending || complete.isSuccess;

  return (
    <AuthCard platformName={platformName} title={t("invite.title")} intro={t("invite.intro", { source: preview.source_name, folder: preview.folder_name })} footer={<Link href="/login">{t("invite.signIn")}</Link>}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormStatus status={status} banner />
        <TextField label={t("invite.email")} name="email" type="email" value={preview.email} readOnly hint={t("invite.emailHint")} />
        {preview.expiration && (
          <p className={styles.intro}>
            {t("invite.validUntil")} <LocalTime iso={preview.expiration} />
          </p>
        )}
        <TextField
          label={t("invite.login")}
          name="login"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          hint={t("invite.loginHint")}
          error={loginError}
        />
        <TextField label={t("invite.firstname")} name="firstname" autoComplete="given-name" />
        <TextField label={t("invite.lastname")} name="lastname" autoComplete="family-name" />
        <TextField
          label={t("invite.password")}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          hint={t("password.hint", { min: minLength })}
          error={weak ? t("password.weak", { min: minLength }) : null}
        />
        <TextField label={t("invite.confirm")} name="confirm" type="password" autoComplete="new-password" required error={mismatch ? t("password.mismatch") : null} />
        <Button type="submit" block disabled={busy}>
          {busy ? t("invite.submitting") : t("invite.submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
