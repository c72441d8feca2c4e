"use client";

import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useSaveTemplate } from "@/lib/queries/signature-templates";
import { describeSignatureError } from "./describe-error";

/** "Save as template": this draft's documents, people (as roles) and fields, kept for new requests. */
export function TemplateSaveButton({ signatureId, disabled }: { signatureId: number; disabled: boolean }) {
  const t = useT();
  const toast = useToast();
  const save = useSaveTemplate();
  return (
    <Button
      variant="secondary"
      disabled={disabled || save.isPending}
      onClick={() =>
        save.mutate(signatureId, {
          onSuccess: (template) => toast({ tone: "info", message: t("signatures.templates.saved", { name: template.name }) }),
          onError: (e) => toast({ tone: "error", message: describeSignatureError(e, t) }),
        })
      }
    >
      {t("signatures.templates.save")}
    </Button>
  );
}
