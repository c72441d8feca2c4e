"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import fieldStyles from "@/components/ui/field.module.css";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { IDENTITY_PROVIDER_TYPES, type IdentityProviderType, isLdapType } from "@/lib/contracts/identity-providers";
import type { MessageKey } from "@/lib/i18n/catalogues/en";
import { useT } from "@/lib/i18n/provider";
import { useSaveProvider, useTestProvider, type IdentityProvider, type ProviderForm } from "@/lib/queries/admin-identity";
import styles from "../admin.module.css";
import { describeAdminError } from "../describe-error";
import own from "./identity.module.css";
import { describeTest, typeKey } from "./provider-labels";

type Kind = "text" | "secret" | "bool" | "textarea" | "number" | "list";
type Field = { key: string; label: MessageKey; kind?: Kind; hint?: MessageKey; required?: boolean };

const DIRECTORY: Field[] = [
  { key: "servers", label: "admin.identity.servers", kind: "list", hint: "admin.identity.serversHint", required: true },
  { key: "baseDN", label: "admin.identity.baseDN", required: true },
  { key: "username", label: "admin.identity.username" },
  { key: "password", label: "admin.identity.password", kind: "secret" },
  { key: "suffix", label: "admin.identity.suffix", hint: "admin.identity.suffixHint" },
  { key: "recursive", label: "admin.identity.recursive", kind: "bool" },
  { key: "starttls", label: "admin.identity.starttls", kind: "bool" },
  { key: "ca", label: "admin.identity.ca", kind: "textarea", hint: "admin.identity.caHint" },
];
const DIRECTORY_ADVANCED: Field[] = [
  { key: "userFilter", label: "admin.identity.userFilter" },
  { key: "groupFilter", label: "admin.identity.groupFilter" },
  ...(["id", "login", "firstname", "lastname", "email", "telephone", "company", "language", "enabled", "editable", "expiration", "quota"] as const).map((k) => ({
    key: `service.${k}`,
    label: `admin.identity.map.${k}` as MessageKey,
  })),
  { key: "ugmap.gtu.in", label: "admin.identity.map.gtuIn" },
  { key: "ugmap.gtu.out", label: "admin.identity.map.gtuOut" },
  { key: "ugmap.utg.in", label: "admin.identity.map.utgIn" },
  { key: "ugmap.utg.out", label: "admin.identity.map.utgOut" },
  { key: "group.id", label: "admin.identity.map.groupId" },
  { key: "group.login", label: "admin.identity.map.groupLogin" },
];
const MS_GRAPH: Field[] = [
  { key: "tenant", label: "admin.identity.tenant", required: true },
  { key: "client_id", label: "admin.identity.clientId", required: true },
  { key: "client_secret", label: "admin.identity.clientSecret", kind: "secret" },
];
const MS_GRAPH_ADVANCED: Field[] = [
  { key: "authority", label: "admin.identity.authority" },
  { key: "graph_url", label: "admin.identity.graphUrl" },
];
const OIDC: Field[] = [
  { key: "discovery", label: "admin.identity.discovery", hint: "admin.identity.discoveryOidcHint", required: true },
  { key: "client_id", label: "admin.identity.clientId", required: true },
  { key: "client_secret", label: "admin.identity.clientSecret", kind: "secret" },
  { key: "provisioning", label: "admin.identity.provisioning", kind: "bool" },
  { key: "purgeTime", label: "admin.identity.purgeTime", kind: "number" },
];
const SAML2: Field[] = [
  { key: "discovery", label: "admin.identity.discovery", hint: "admin.identity.discoverySamlHint", required: true },
  { key: "provisioning", label: "admin.identity.provisioning", kind: "bool" },
  // Off unless the administrator knows this provider verifies addresses: only then may one match an existing account.
  { key: "emails_verified", label: "admin.identity.emailsVerified", kind: "bool", hint: "admin.identity.emailsVerifiedHint" },
  { key: "purgeTime", label: "admin.identity.purgeTime", kind: "number" },
];

function fieldsOf(type: IdentityProviderType): { main: Field[]; advanced: Field[]; advancedLabel: MessageKey } {
  if (isLdapType(type)) return { main: DIRECTORY, advanced: DIRECTORY_ADVANCED, advancedLabel: "admin.identity.mapping" };
  if (type === "ms-graph") return { main: MS_GRAPH, advanced: MS_GRAPH_ADVANCED, advancedLabel: "admin.identity.advanced" };
  return { main: type === "oidc" ? OIDC : SAML2, advanced: [], advancedLabel: "admin.identity.advanced" };
}

type Values = Record<string, string | boolean>;

function initialValues(provider: IdentityProvider | undefined, type: IdentityProviderType): Values {
  const { main, advanced } = fieldsOf(type);
  const values: Values = { name: provider?.name ?? "", enable: provider?.enable ?? true, matching: String(provider?.matching ?? 0) };
  for (const f of [...main, ...advanced]) {
    const v = provider?.[f.key];
    if (f.kind === "bool") values[f.key] = v === true || (!provider && f.key === "provisioning");
    else if (f.kind === "secret") values[f.key] = "";
    else if (Array.isArray(v)) values[f.key] = v.join(", ");
    else values[f.key] = v === undefined || v === null ? "" : String(v);
  }
  return values;
}

/** The form as the API wants it: blanks are left out on creation and cleared (null) on edit; a blank secret keeps the stored one. */
function toBody(values: Values, type: IdentityProviderType, provider: IdentityProvider | undefined): ProviderForm {
  const { main, advanced } = fieldsOf(type);
  const body: ProviderForm = { type, name: String(values.name).trim(), enable: values.enable === true, matching: Number(values.matching) };
  for (const f of [...main, ...advanced]) {
    const v = values[f.key];
    if (f.kind === "bool") {
      body[f.key] = v === true;
      continue;
    }
    const text = String(v ?? "").trim();
    if (f.kind === "secret") {
      if (text) body[f.key] = String(v);
      continue;
    }
    if (!text) {
      if (provider && provider[f.key] !== undefined) body[f.key] = null;
      continue;
    }
    body[f.key] = f.kind === "list" ? text.split(/[\s,]+/).filter(Boolean) : f.kind === "number" ? Number(text) : f.kind === "textarea" ? String(v) : text;
  }
  return body;
}

type Props = { provider?: IdentityProvider; onClose: () => void; onDone: (saved: IdentityProvider) => void };

/** Create or edit an identity provider: the fields of its type, a test of the form as it stands, save. */
export function ProviderDialog({ provider, onClose, onDone }: Props) {
  const t = useT();
  const save = useSaveProvider();
  const test = useTestProvider();
  const [type, setType] = useState<IdentityProviderType>(provider?.type ?? "ldap");
  const [values, setValues] = useState<Values>(() => initialValues(provider, provider?.type ?? "ldap"));
  const [status, setStatus] = useState<Status>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  const { main, advanced, advancedLabel } = fieldsOf(type);
  const set = (key: string, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));

  function fail(error: unknown) {
    setInvalid(error instanceof ApiError ? error.fields : []);
    setStatus({ tone: "error", message: describeAdminError(error, t) });
  }

  async function submit() {
    setStatus(null);
    if (!String(values.name).trim()) {
      setInvalid(["name"]);
      setStatus({ tone: "error", message: t("common.required") });
      return;
    }
    try {
      onDone(await save.mutateAsync({ id: provider?.id, form: toBody(values, type, provider) }));
    } catch (error) {
      fail(error);
    }
  }

  async function runTest() {
    setStatus({ tone: "info", message: t("admin.identity.testing") });
    try {
      const body = toBody(values, type, provider);
      // Cleared fields are simply absent from a configuration being tested.
      for (const key of Object.keys(body)) if (body[key] === null) delete body[key];
      setInvalid([]);
      setStatus(describeTest(await test.mutateAsync(provider ? { ...body, id: provider.id } : body), String(values.name) || t(typeKey(type)), t));
    } catch (error) {
      fail(error);
    }
  }

  const busy = save.isPending;
  return (
    <Dialog
      title={provider ? t("admin.identity.editTitle", { name: provider.name }) : t("admin.identity.createTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={busy ? t("common.saving") : t("common.save")} disabled={busy} />}
    >
      <div className={own.grid}>
        <Select
          label={t("admin.identity.type")}
          value={type}
          disabled={Boolean(provider)}
          onChange={(e) => {
            const next = e.target.value as IdentityProviderType;
            setType(next);
            setValues((v) => ({ ...initialValues(undefined, next), name: v.name, enable: v.enable, matching: v.matching }));
          }}
          options={IDENTITY_PROVIDER_TYPES.map((value) => ({ value, label: t(typeKey(value)) }))}
        />
        <TextField label={t("admin.identity.name")} value={String(values.name)} onChange={(e) => set("name", e.target.value)} required error={invalid.includes("name") ? t("common.required") : null} />
        {type !== "ms-graph" && (
          <Select
            label={t("admin.identity.matching")}
            value={String(values.matching)}
            onChange={(e) => set("matching", e.target.value)}
            options={[
              { value: "0", label: t("admin.identity.matching.login") },
              { value: "1", label: t("admin.identity.matching.email") },
            ]}
          />
        )}
      </div>
      <label className={styles.check}>
        <input type="checkbox" checked={values.enable === true} onChange={(e) => set("enable", e.target.checked)} />
        <span>{t("admin.identity.enable")}</span>
      </label>
      <div className={own.grid}>
        {main.map((f) => (
          <ProviderField key={f.key} field={f} value={values[f.key]} onChange={(v) => set(f.key, v)} stored={Boolean(provider?.[`has_${f.key}`])} invalid={invalid.some((p) => p === f.key || p.startsWith(`${f.key}.`))} />
        ))}
      </div>
      {advanced.length > 0 && (
        <details className={own.section}>
          <summary>{t(advancedLabel)}</summary>
          {isLdapType(type) && <p className={styles.muted}>{t("admin.identity.mappingHint")}</p>}
          <div className={own.grid}>
            {advanced.map((f) => (
              <ProviderField key={f.key} field={f} value={values[f.key]} onChange={(v) => set(f.key, v)} stored={false} invalid={invalid.includes(f.key)} />
            ))}
          </div>
        </details>
      )}
      <div className={own.testRow}>
        <Button variant="secondary" onClick={runTest} disabled={test.isPending}>
          {test.isPending ? t("admin.identity.testing") : t("admin.identity.testForm")}
        </Button>
      </div>
      <FormStatus status={status} />
    </Dialog>
  );
}

function ProviderField({ field, value, onChange, stored, invalid }: { field: Field; value: string | boolean | undefined; onChange: (v: string | boolean) => void; stored: boolean; invalid: boolean }) {
  const t = useT();
  const id = useId();
  const label = t(field.label);
  if (field.kind === "bool") {
    return (
      <div>
        <label className={styles.check}>
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={field.hint ? `${id}-hint` : undefined} />
          <span>{label}</span>
        </label>
        {field.hint && (
          <p id={`${id}-hint`} className={fieldStyles.hint}>
            {t(field.hint)}
          </p>
        )}
      </div>
    );
  }
  if (field.kind === "textarea") {
    return (
      <div className={fieldStyles.field}>
        <label htmlFor={id} className={fieldStyles.label}>
          {label}
        </label>
        <textarea id={id} className={`${fieldStyles.control} ${own.textarea}`} value={String(value ?? "")} onChange={(e) => onChange(e.target.value)} spellCheck={false} aria-invalid={invalid || undefined} aria-describedby={field.hint ? `${id}-hint` : undefined} />
        {field.hint && (
          <p id={`${id}-hint`} className={fieldStyles.hint}>
            {t(field.hint)}
          </p>
        )}
      </div>
    );
  }
  const hint = field.kind === "secret" && stored ? t("admin.identity.secretKept") : field.hint ? t(field.hint) : undefined;
  return (
    <TextField
      label={label}
      type={field.kind === "secret" ? "password" : field.kind === "number" ? "number" : "text"}
      autoComplete={field.kind === "secret" ? "new-password" : "off"}
      spellCheck={false}
      value={String(value ?? "")}
      onChange={(e) => onChange(e.target.value)}
      required={field.required}
      hint={hint}
      error={invalid ? t("admin.identity.invalidField") : null}
      min={field.kind === "number" ? 0 : undefined}
    />
  );
}
