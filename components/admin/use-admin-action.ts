"use client";

import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { describeAdminError } from "./describe-error";

/** A console action's outcome as a notice: `done` when it worked, the server's reason when it did not. */
export function useAdminAction() {
  const t = useT();
  const toast = useToast();
  return (promise: Promise<unknown>, done: string) =>
    promise.then(
      () => toast({ tone: "info", message: done }),
      (error) => toast({ tone: "error", message: describeAdminError(error, t) }),
    );
}
