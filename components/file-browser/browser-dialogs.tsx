"use client";

import { DropLinkDialog } from "@/components/sharing/drop-link-dialog";
import { ShareDialog } from "@/components/sharing/share-dialog";
import { TemplateCreateDialog } from "@/components/templates/template-create-dialog";
import { TemplateNewFileDialog } from "@/components/templates/template-new-file-dialog";
import { useToast } from "@/components/ui/toast";
import { WorkflowStartDialog } from "@/components/workflows/workflow-start-dialog";
import { useT } from "@/lib/i18n/provider";
import { FolderCreateDialog } from "./folder-create-dialog";
import { ItemRenameDialog } from "./item-rename-dialog";
import { ItemsMoveDialog } from "./items-move-dialog";
import { ItemsTagDialog } from "./items-tag-dialog";
import type { Dialog } from "./use-item-actions";

type Props = {
  dialog: Dialog;
  /** The open folder, where new folders and files from templates go (none in a space's root). */
  targetId: number | undefined;
  onClose: () => void;
  /** After a move or a copy: the moved rows are gone, their selection too. */
  onMoved: () => void;
};

/** The dialog the browser has open, if any; each one's success is said in a notice. */
export function BrowserDialogs({ dialog, targetId, onClose, onMoved }: Props) {
  const t = useT();
  const toast = useToast();
  const done = (message: string) => {
    onClose();
    toast({ tone: "info", message });
  };
  switch (dialog?.type) {
    case "new":
      return targetId ? <FolderCreateDialog parentId={targetId} onClose={onClose} onDone={() => done(t("files.folderCreated"))} /> : null;
    case "rename":
      return <ItemRenameDialog item={dialog.item} onClose={onClose} onDone={() => done(t("files.renamed"))} />;
    case "share":
      return <ShareDialog item={dialog.item} onClose={onClose} />;
    case "fromTemplate":
      return targetId ? <TemplateNewFileDialog folderId={targetId} onClose={onClose} onDone={(name) => done(t("templates.created", { name }))} /> : null;
    case "template":
      return <TemplateCreateDialog file={dialog.item} onClose={onClose} onDone={() => done(t("templates.made"))} />;
    case "dropLink":
      return <DropLinkDialog folder={dialog.item} onClose={onClose} />;
    case "startValidation":
      return <WorkflowStartDialog files={dialog.items} onClose={onClose} />;
    case "tag":
      return <ItemsTagDialog items={dialog.items} onClose={onClose} onDone={(name) => done(t("files.tagged", { count: dialog.items.length, name }))} />;
    case "move":
    case "copy": {
      const mode = dialog.type;
      return (
        <ItemsMoveDialog
          items={dialog.items}
          mode={mode}
          onClose={onClose}
          onDone={() => {
            onMoved();
            done(t(mode === "move" ? "files.moved" : "files.copied"));
          }}
        />
      );
    }
    default:
      return null;
  }
}
