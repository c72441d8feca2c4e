"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import type { ConfigPatch, SmtpSource } from "@/lib/contracts/config";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { configQuery, smtpSettingsQuery, useTestSmtp, useUpdateConfig, type Config, type SmtpSettings, type SmtpTestInput } from "@/lib/queries/admin-config";
import { canonicalTimeZone, timeZoneLabel } from "@/lib/contracts/time-zones";
import styles from "./admin.module.css";
import { BrandingCard } from "./branding-card";
import { describeAdminError } from "./describe-error";
import { SigningSealCard } from "./signing-seal-card";

const FEATURES = ["trash", "versioning", "lock", "direct_link", "upload_link", "edit", "invitations", "oauth2"] as const;
const MB = 1024 * 1024;

/**
 * /admin/config: the platform options of GET/PUT /api/config, one card per topic, each saved on
 * its own (only its fields are sent). The SMTP card shows the settings mail goes through now and
 * where each comes from (SMTP_URL, the console, the default), lets the console's settings replace
 * SMTP_URL's, and tries settings (those in force, or those typed) showing the server's own answer.
 */
export function ConfigScreen() {
  const t = useT();
  const config = useQuery(configQuery());
  if (config.isPending) return <p className={styles.state}>{t("common.loading")}</p>;
  if (config.isError)
    return (
      <div className={styles.stateBox} role="alert">
        <p>{describeAdminError(config.error, t)}</p>
        <Button onClick={() => config.refetch()}>{t("error.retry")}</Button>
      </div>
    );
  // Each card keeps its own draft from the first load; saving one card leaves the others' drafts alone.
  return (
    <div className={styles.screen}>
      <PageHeader title={t("admin.config.title")} subtitle={t("admin.config.subtitle")} />
      <GeneralCard config={config.data} />
      <BrandingCard config={config.data} />
      <FeaturesCard config={config.data} />
      <SecurityCard config={config.data} />
      <MfaCard config={config.data} />
      <SmtpCard config={config.data} />
      <SigningSealCard />
    </div>
  );
}

/** A card whose form sends one patch. */
function ConfigCard({ title, description, patch, children }: { title: string; description?: string; patch: () => ConfigPatch | null; children: ReactNode }) {
  const t = useT();
  const update = useUpdateConfig();
  const [status, setStatus] = useState<Status>(null);
  async function save(event: React.FormEvent) {
    event.preventDefault();
    const body = patch();
    if (!body) return setStatus({ tone: "error", message: t("error.invalid") });
    setStatus(null);
    try {
      await update.mutateAsync(body);
      setStatus({ tone: "success", message: t("common.saved") });
    } catch (error) {
      setStatus({ tone: "error", message: describeAdminError(error, t) });
    }
  }
  return (
    <Card title={title} description={description}>
      <form className={styles.form} onSubmit={save} noValidate>
        {children}
        <FormStatus status={status} />
        <div className={styles.actions}>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function Check({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {label}
        {hint && <span className={styles.muted}> — {hint}</span>}
      </span>
    </label>
  );
}

const int = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s) : null);

/** The zones this browser knows, for the time zone field's suggestions. */
function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return names.includes("UTC") ? names : ["UTC", ...names];
}

function GeneralCard({ config }: { config: Config }) {
  const t = useT();
  const [name, setName] = useState(config.platform_name);
  const [quota, setQuota] = useState(config.quota === null ? "" : String(Math.round(config.quota / MB)));
  const [orgGroups, setOrgGroups] = useState(config.organization_groups);
  const [zone, setZone] = useState(config.time_zone);
  const zoneId = useId();
  const knownZone = canonicalTimeZone(zone.trim());
  return (
    <ConfigCard
      title={t("admin.config.general")}
      patch={() => {
        const mb = quota.trim() === "" ? null : int(quota);
        if (!name.trim() || (quota.trim() !== "" && mb === null) || !knownZone) return null;
        return { platform_name: name.trim(), quota: mb === null ? null : mb * MB, organization_groups: orgGroups, time_zone: knownZone };
      }}
    >
      <div className={styles.row}>
        <TextField label={t("admin.config.platformName")} hint={t("admin.config.platformNameHint")} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
        <TextField label={t("admin.config.quota")} hint={t("admin.config.quotaHint")} value={quota} onChange={(e) => setQuota(e.target.value)} inputMode="numeric" />
        <TextField
          label={t("admin.config.timeZone")}
          hint={knownZone ? t("admin.config.timeZoneHint", { zone: timeZoneLabel(knownZone) }) : undefined}
          error={knownZone ? null : t("admin.config.timeZoneUnknown")}
          value={zone}
          onChange={(e) => setZone(e.target.value)}
          list={zoneId}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
        />
        <datalist id={zoneId}>
          {timeZoneNames().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>
      <Check label={t("admin.config.organizationGroups")} checked={orgGroups} onChange={setOrgGroups} />
    </ConfigCard>
  );
}

function FeaturesCard({ config }: { config: Config }) {
  const t = useT();
  const [features, setFeatures] = useState(config.features);
  return (
    <ConfigCard title={t("admin.config.features")} description={t("admin.config.featuresHint")} patch={() => ({ features })}>
      <fieldset className={styles.checks}>
        <legend className="visually-hidden">{t("admin.config.features")}</legend>
        {FEATURES.map((f) => (
          <Check key={f} label={t(`admin.config.feature.${f}`)} checked={features[f]} onChange={(v) => setFeatures({ ...features, [f]: v })} />
        ))}
      </fieldset>
    </ConfigCard>
  );
}

function SecurityCard({ config }: { config: Config }) {
  const t = useT();
  const [limit, setLimit] = useState(String(config.session_limit));
  const [idle, setIdle] = useState(String(config.session_idle));
  const [minLength, setMinLength] = useState(String(config.password_min_length));
  const [retention, setRetention] = useState(String(config.trash_retention_days));
  const [selfAlert, setSelfAlert] = useState(config.self_alert);
  return (
    <ConfigCard
      title={t("admin.config.security")}
      patch={() => {
        const values = [int(limit), int(idle), int(minLength), int(retention)];
        if (values.some((v) => v === null)) return null;
        const [session_limit, session_idle, password_min_length, trash_retention_days] = values as number[];
        return { session_limit, session_idle, password_min_length, trash_retention_days, self_alert: selfAlert };
      }}
    >
      <div className={styles.row}>
        <TextField label={t("admin.config.sessionLimit")} hint={t("admin.config.minutes")} value={limit} onChange={(e) => setLimit(e.target.value)} inputMode="numeric" />
        <TextField label={t("admin.config.sessionIdle")} hint={t("admin.config.minutes")} value={idle} onChange={(e) => setIdle(e.target.value)} inputMode="numeric" />
        <TextField label={t("admin.config.passwordMin")} hint={t("admin.config.passwordMinHint")} value={minLength} onChange={(e) => setMinLength(e.target.value)} inputMode="numeric" />
        <TextField label={t("admin.config.trashRetention")} hint={t("admin.config.trashRetentionHint")} value={retention} onChange={(e) => setRetention(e.target.value)} inputMode="numeric" />
      </div>
      <Check label={t("admin.config.selfAlert")} hint={t("admin.config.selfAlertHint")} checked={selfAlert} onChange={setSelfAlert} />
    </ConfigCard>
  );
}

/** Two-step verification: the kinds of second factor offered, and forcing one on everyone. */
function MfaCard({ config }: { config: Config }) {
  const t = useT();
  const [values, setValues] = useState({ mfa_required: config.mfa_required, mfa_otp: config.mfa_otp, mfa_webauthn: config.mfa_webauthn, mfa_sms: config.mfa_sms });
  const set = (key: keyof typeof values) => (v: boolean) => setValues({ ...values, [key]: v });
  return (
    <ConfigCard title={t("admin.config.mfa")} description={t("admin.config.mfaHint")} patch={() => values}>
      <fieldset className={styles.checks}>
        <legend className="visually-hidden">{t("admin.config.mfa")}</legend>
        <Check label={t("admin.config.mfaOtp")} checked={values.mfa_otp} onChange={set("mfa_otp")} />
        <Check label={t("admin.config.mfaWebauthn")} checked={values.mfa_webauthn} onChange={set("mfa_webauthn")} />
        <Check label={t("admin.config.mfaSms")} hint={t("admin.config.mfaSmsHint")} checked={values.mfa_sms} onChange={set("mfa_sms")} />
      </fieldset>
      <Check label={t("admin.config.mfaRequired")} hint={t("admin.config.mfaRequiredHint")} checked={values.mfa_required} onChange={set("mfa_required")} />
    </ConfigCard>
  );
}

const SOURCE_KEYS = { environment: "admin.config.smtpSource.environment", console: "admin.config.smtpSource.console", default: "admin.config.smtpSource.default" } as const;

/** The settings mail goes through now, each with its source; the password only as set or not. */
function SmtpInForce({ settings }: { settings: SmtpSettings }) {
  const t = useT();
  const rows: { label: string; value: string; source: SmtpSource }[] = [
    { label: t("admin.config.smtpHost"), value: settings.host.value || "—", source: settings.host.source },
    { label: t("admin.config.smtpPort"), value: String(settings.port.value), source: settings.port.source },
    { label: t("admin.config.smtpSecurity"), value: t(`admin.config.smtpSecurity.${settings.security.value}`), source: settings.security.source },
    { label: t("admin.config.smtpUser"), value: settings.user.value || t("admin.config.smtpNoUser"), source: settings.user.source },
    { label: t("admin.config.smtpPassword"), value: t(settings.password.value ? "admin.config.smtpPasswordSet" : "admin.config.smtpPasswordUnset"), source: settings.password.source },
    { label: t("admin.config.smtpFrom"), value: settings.from.value, source: settings.from.source },
  ];
  return (
    <section aria-labelledby="smtp-in-force" data-testid="smtp-in-force">
      <h3 id="smtp-in-force" className={styles.subheading}>
        {t("admin.config.smtpInForce")}
      </h3>
      <p className={styles.muted}>{describeOrigin(settings, t)}</p>
      <dl className={styles.sources}>
        {rows.map((row) => (
          <div key={row.label} className={styles.sourceRow}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
            <dd>
              <span className={row.source === "default" ? styles.badge : styles.badgeOk} data-testid="smtp-source">
                {t(SOURCE_KEYS[row.source])}
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function describeOrigin(settings: SmtpSettings, t: Translate): string {
  if (settings.origin === "environment") return t("admin.config.smtpFromEnvironment");
  if (settings.origin === "console") return t(settings.environment ? "admin.config.smtpOverriding" : "admin.config.smtpFromConsole");
  return t("admin.config.smtpNone");
}

function SmtpCard({ config }: { config: Config }) {
  const t = useT();
  const settings = useQuery(smtpSettingsQuery());
  const [smtp, setSmtp] = useState({ ...config.smtp, smtp_port: String(config.smtp.smtp_port) });
  const [to, setTo] = useState("");
  const test = useTestSmtp();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const set = (key: keyof typeof smtp) => (e: { target: { value: string } }) => setSmtp({ ...smtp, [key]: e.target.value });
  const values = () => {
    const port = int(smtp.smtp_port);
    return port === null ? null : { ...smtp, smtp_port: port };
  };

  async function send(input: SmtpTestInput) {
    setAnswer(null);
    try {
      const res = await test.mutateAsync({ ...input, ...(to.trim() ? { to: to.trim() } : {}) });
      setAnswer({ ok: true, text: res.response });
    } catch (error) {
      const details = error instanceof ApiError ? (error.details as { response?: string } | undefined) : undefined;
      setAnswer({ ok: false, text: [describeAdminError(error, t), details?.response].filter(Boolean).join("\n") });
    }
  }

  function testTyped() {
    const v = values();
    if (!v || !v.smtp_host) return setAnswer({ ok: false, text: t("admin.config.smtpHostNeeded") });
    return send({ smtp_host: v.smtp_host, smtp_port: v.smtp_port, smtp_secure: v.smtp_secure, smtp_auth: v.smtp_auth, smtp_username: v.smtp_username, smtp_password: v.smtp_password, smtp_from: v.smtp_from });
  }

  return (
    <ConfigCard title={t("admin.config.smtp")} description={t("admin.config.smtpHint")} patch={() => { const v = values(); return v ? { smtp: v } : null; }}>
      {settings.data ? <SmtpInForce settings={settings.data} /> : settings.isError ? <p className={styles.error}>{describeAdminError(settings.error, t)}</p> : <p className={styles.muted}>{t("common.loading")}</p>}
      <div className={styles.toolbar}>
        <TextField label={t("admin.config.smtpTestTo")} hint={t("admin.config.smtpTestToHint")} type="email" value={to} onChange={(e) => setTo(e.target.value)} />
        <div className={`${styles.actions} ${styles.fit}`}>
          <Button variant="secondary" onClick={() => send({ in_force: true })} disabled={test.isPending || settings.data?.origin === null}>
            {t("admin.config.sendTestMail")}
          </Button>
        </div>
      </div>
      {answer && (
        <div role="status">
          <p className={answer.ok ? styles.badgeOk : styles.badgeDanger}>{answer.ok ? t("admin.config.testOk") : t("admin.config.testFailed")}</p>
          <pre className={styles.answer}>{answer.text}</pre>
        </div>
      )}
      <h3 className={styles.subheading}>{t("admin.config.smtpConsole")}</h3>
      {settings.data?.environment && (
        <Check label={t("admin.config.smtpOverride")} hint={t("admin.config.smtpOverrideHint")} checked={smtp.smtp_override} onChange={(v) => setSmtp({ ...smtp, smtp_override: v })} />
      )}
      <div className={styles.row}>
        <TextField label={t("admin.config.smtpHost")} value={smtp.smtp_host} onChange={set("smtp_host")} />
        <TextField label={t("admin.config.smtpPort")} value={smtp.smtp_port} onChange={set("smtp_port")} inputMode="numeric" />
        <TextField label={t("admin.config.smtpFrom")} hint={t("admin.config.smtpFromHint")} value={smtp.smtp_from} onChange={set("smtp_from")} />
      </div>
      <Check label={t("admin.config.smtpSecure")} checked={smtp.smtp_secure} onChange={(v) => setSmtp({ ...smtp, smtp_secure: v })} />
      <Check label={t("admin.config.smtpAuth")} checked={smtp.smtp_auth} onChange={(v) => setSmtp({ ...smtp, smtp_auth: v })} />
      {smtp.smtp_auth && (
        <div className={styles.row}>
          <TextField label={t("admin.config.smtpUser")} value={smtp.smtp_username} onChange={set("smtp_username")} autoComplete="off" />
          <TextField label={t("admin.config.smtpPassword")} type="password" value={smtp.smtp_password} onChange={set("smtp_password")} autoComplete="new-password" />
        </div>
      )}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={testTyped} disabled={test.isPending}>
          {test.isPending ? t("admin.config.testing") : t("admin.config.test")}
        </Button>
      </div>
    </ConfigCard>
  );
}
