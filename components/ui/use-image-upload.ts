"use client";

import { useState, type ChangeEvent } from "react";
import type { Status } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";

type Mutation<V> = { mutate: (value: V, handlers: { onSuccess: () => void; onError: (error: unknown) => void }) => void; isPending: boolean };

/** Messages of an image picker, already translated. */
export type ImageUploadMessages = { notImage: string; tooLarge: string; uploading: string; updated: string; rejected: string; removed: string };

/**
 * An image chosen in a file input, checked in the browser (type, size) before it is uploaded, and
 * removed on demand, with one status line for both: the account picture and the platform logo.
 * The server checks again; its refusal of the image itself (400, 413, 415) reads as `rejected`.
 */
export function useImageUpload(options: {
  upload: Mutation<File>;
  remove: Mutation<undefined>;
  maxBytes: number;
  messages: ImageUploadMessages;
  describe: (error: unknown) => string;
}) {
  const { upload, remove, maxBytes, messages, describe } = options;
  const [status, setStatus] = useState<Status>(null);
  const fail = (error: unknown, rejectedImage: boolean) => setStatus({ tone: "error", message: rejectedImage ? messages.rejected : describe(error) });

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) return setStatus({ tone: "error", message: messages.notImage });
    if (file.size > maxBytes) return setStatus({ tone: "error", message: messages.tooLarge });
    setStatus({ tone: "info", message: messages.uploading });
    upload.mutate(file, {
      onSuccess: () => setStatus({ tone: "success", message: messages.updated }),
      onError: (error) => fail(error, error instanceof ApiError && [400, 413, 415].includes(error.status)),
    });
  }

  function clear() {
    remove.mutate(undefined, {
      onSuccess: () => setStatus({ tone: "success", message: messages.removed }),
      onError: (error) => fail(error, false),
    });
  }

  return { status, busy: upload.isPending || remove.isPending, choose, clear };
}
