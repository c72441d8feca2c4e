"use client";

import { useState } from "react";

/**
 * A dialog's one action: busy while it runs, then `done` (closing the dialog), or the refusal in
 * words, with the dialog left open to try again.
 */
export function useDialogAction(describe: (error: unknown) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(work: () => Promise<unknown>, done: () => void) {
    setBusy(true);
    setError(null);
    try {
      await work();
      done();
    } catch (e) {
      setError(describe(e));
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}
