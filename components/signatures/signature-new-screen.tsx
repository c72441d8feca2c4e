"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { fileQuery } from "@/lib/queries/files";
import { useCreateSignature } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import styles from "./signatures.module.css";
import { TemplateStart } from "./template-start";

/**
 * The builder's first step: the request's name (and, from the file browser's "Request
 * signatures", the PDF it starts with). Continuing makes the draft the builder then fills.
 */
export function SignatureNewScreen({ fileId }: { fileId?: number }) {
  const t = useT();
  const router = useRouter();
  const toast = useToast();
  const file = useQuery(fileQuery(fileId));
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateSignature();
  const shownName = name ?? (file.data ? file.data.name.replace(/\.pdf$/i, "") : "");

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = shownName.trim();
    if (!trimmed) return setError(t("signatures.new.nameRequired"));
    setError(null);
    create.mutate(
      { input: { name: trimmed }, fileId: file.data ? fileId : undefined },
      {
        onSuccess: ({ request, documentError }) => {
          // The draft exists either way; a PDF the server refused is said on the builder.
          if (documentError) toast({ tone: "error", message: t("signatures.builder.documentRefused", { reason: describeSignatureError(documentError, t) }) });
          router.replace(`/signatures/${request.id}/edit`);
        },
        onError: (e) => setError(describeSignatureError(e, t)),
      },
    );
  }

  return (
    <div className={styles.screen}>
      <PageHeader title={t("signatures.new.title")} subtitle={t("signatures.new.subtitle")} />
      <form className={styles.narrowForm} onSubmit={submit} noValidate>
        <TextField label={t("signatures.field.name")} value={shownName} onChange={(e) => setName(e.target.value)} maxLength={255} required autoFocus error={error} />
        {fileId !== undefined && (
          <p className={styles.muted} data-testid="new-document">
            {file.isPending ? t("common.loading") : file.data ? t("signatures.new.withDocument", { name: file.data.name }) : t("signatures.new.documentMissing")}
          </p>
        )}
        <div className={styles.actions}>
          <Button type="submit" disabled={create.isPending}>
            {t("signatures.new.continue")}
          </Button>
          <Button variant="ghost" onClick={() => router.push("/signatures")}>
            {t("common.cancel")}
          </Button>
        </div>
      </form>
      {fileId === undefined && <TemplateStart name={name ?? ""} />}
    </div>
  );
}
