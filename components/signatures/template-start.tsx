"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { signatureTemplatesQuery, useStartFromTemplate } from "@/lib/queries/signature-templates";
import type { SignatureResponse } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import styles from "./signatures.module.css";

type Person = { email: string; first_name: string; last_name: string };

/**
 * The new request's other start: one of my templates, each of its roles (the people it was saved
 * with) given to someone (prefilled with the template's person), then the builder.
 */
export function TemplateStart({ name }: { name: string }) {
  const t = useT();
  const templates = useQuery(signatureTemplatesQuery());
  const [chosen, setChosen] = useState<number | null>(null);
  const list = templates.data?.objects ?? [];
  if (list.length === 0) return null;
  const template = list.find((x) => x.id === chosen) ?? list[0];
  return (
    <section className={styles.narrowForm} aria-label={t("signatures.templates.start")} data-testid="template-start">
      <h2 className={styles.smallHeading}>{t("signatures.templates.start")}</h2>
      <Select label={t("signatures.templates.template")} value={String(template.id)} onChange={(e) => setChosen(Number(e.target.value))} options={list.map((x) => ({ value: String(x.id), label: x.name }))} />
      <RolesForm key={template.id} template={template} name={name} />
    </section>
  );
}

function RolesForm({ template, name }: { template: SignatureResponse; name: string }) {
  const t = useT();
  const router = useRouter();
  const start = useStartFromTemplate();
  const [people, setPeople] = useState<Record<number, Person>>(() => Object.fromEntries(template.actors.map((a) => [a.id, { email: a.email, first_name: a.first_name, last_name: a.last_name }])));
  const [error, setError] = useState<string | null>(null);
  const set = (id: number, key: keyof Person) => (e: { target: { value: string } }) => setPeople({ ...people, [id]: { ...people[id], [key]: e.target.value } });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const roles = template.actors.map((a) => ({ role: a.id, infos: { email: people[a.id].email.trim(), first_name: people[a.id].first_name.trim(), last_name: people[a.id].last_name.trim() } }));
    start.mutate(
      { templateId: template.id, name: name.trim() || template.name, roles },
      { onSuccess: (request) => router.replace(`/signatures/${request.id}/edit`), onError: (e) => setError(describeSignatureError(e, t)) },
    );
  }

  return (
    <form onSubmit={submit} noValidate className={styles.fieldForm}>
      {template.actors.map((a, i) => (
        <fieldset key={a.id} className={styles.grid2} aria-label={t("signatures.templates.role", { n: i + 1, type: t(`signatures.actorType.${a.type}`) })}>
          <legend>{t("signatures.templates.role", { n: i + 1, type: t(`signatures.actorType.${a.type}`) })}</legend>
          <TextField label={t("signatures.templates.email")} type="email" value={people[a.id].email} onChange={set(a.id, "email")} />
          <span />
          <TextField label={t("signatures.templates.firstName")} value={people[a.id].first_name} onChange={set(a.id, "first_name")} />
          <TextField label={t("signatures.templates.lastName")} value={people[a.id].last_name} onChange={set(a.id, "last_name")} />
        </fieldset>
      ))}
      {error && <p role="alert">{error}</p>}
      <div className={styles.actions}>
        <Button type="submit" variant="secondary" disabled={start.isPending} data-testid="use-template">
          {t("signatures.templates.use")}
        </Button>
      </div>
    </form>
  );
}
