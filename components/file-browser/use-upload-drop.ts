"use client";

import { useEffect, useMemo, type ChangeEvent } from "react";
import { useDropzone } from "react-dropzone";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useRefreshFiles, type FolderResponse, type Item } from "@/lib/queries/files";
import { enqueueUploads, setUploadFinishedHandler } from "@/lib/queries/uploads";

/**
 * Uploads into the open folder: files dropped anywhere on the browser, picked, or a whole folder
 * picked. `loaded` are the rows shown, whose names make an upload a new version.
 */
export function useUploadDrop(folder: FolderResponse | undefined, loaded: Item[]) {
  const t = useT();
  const toast = useToast();
  const refresh = useRefreshFiles();
  useEffect(() => {
    setUploadFinishedHandler(() => void refresh());
    return () => setUploadFinishedHandler(null);
  }, [refresh]);

  const targetId = folder && folder.id > 0 ? folder.id : undefined;
  const canWrite = Boolean(folder?.can_write && targetId);
  const existingNames = useMemo(() => new Set(loaded.filter((i) => i.kind === "file").map((i) => i.name)), [loaded]);
  // Never `disabled`: react-dropzone would mark the whole browser aria-disabled. A drop where the
  // caller may not add files is refused in words instead.
  const dropzone = useDropzone({
    onDrop: (files) => {
      if (canWrite && targetId) enqueueUploads(files, targetId, existingNames);
      else if (folder && files.length > 0) toast({ tone: "error", message: t("files.readOnlyDrop") });
    },
    noClick: true,
    noKeyboard: true,
  });

  // Picking a whole folder: the browser gives each file its webkitRelativePath.
  const onFolderPicked = (e: ChangeEvent<HTMLInputElement>) => {
    if (targetId && e.target.files) enqueueUploads(Array.from(e.target.files), targetId, existingNames);
    e.target.value = "";
  };

  return { targetId, canWrite, dropzone, onFolderPicked };
}
