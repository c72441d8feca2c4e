"use client";

import { useState, type ChangeEvent } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import buttonStyles from "@/components/ui/button.module.css";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { displayName, useAccountPictureUrl, useRemoveAccountPicture, useUploadAccountPicture, type Account } from "@/lib/queries/account";
import styles from "./account.module.css";
import { describeError } from "./describe-error";

const MAX_BYTES = 16 * 1024 * 1024; // the contract's profile picture limit

export function AccountPictureForm({ account, locked }: { account: Account; locked: boolean }) {
  const t = useT();
  const pictureUrl = useAccountPictureUrl();
  const upload = useUploadAccountPicture();
  const remove = useRemoveAccountPicture();
  const [status, setStatus] = useState<Status>(null);
  const busy = upload.isPending || remove.isPending;

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) return setStatus({ tone: "error", message: t("account.pictureNotImage") });
    if (file.size > MAX_BYTES) return setStatus({ tone: "error", message: t("account.pictureTooLarge") });
    setStatus({ tone: "info", message: t("account.pictureUploading") });
    upload.mutate(file, {
      onSuccess: () => setStatus({ tone: "success", message: t("account.pictureUpdated") }),
      onError: (error) => setStatus({ tone: "error", message: rejected(error) ? t("account.pictureRejected") : describeError(error, t) }),
    });
  }

  function clear() {
    remove.mutate(undefined, {
      onSuccess: () => setStatus({ tone: "success", message: t("account.pictureRemoved") }),
      onError: (error) => setStatus({ tone: "error", message: describeError(error, t) }),
    });
  }

  return (
    <Card title={t("account.picture")} description={t("account.pictureHelp")}>
      <div className={styles.picture}>
        <Avatar name={displayName(account)} src={pictureUrl} size={96} alt={pictureUrl ? t("account.pictureAlt") : ""} />
        <div className={styles.pictureActions}>
          {!pictureUrl && <p className="muted">{t("account.pictureNone")}</p>}
          {!locked && (
            <div className={styles.pictureButtons}>
              <label className={`${buttonStyles.button} ${buttonStyles.secondary} ${styles.fileButton}`} aria-disabled={busy || undefined}>
                <input type="file" accept="image/*" onChange={choose} disabled={busy} />
                {pictureUrl ? t("account.pictureReplace") : t("account.pictureChoose")}
              </label>
              {pictureUrl && (
                <Button variant="danger" onClick={clear} disabled={busy}>
                  {t("account.pictureRemove")}
                </Button>
              )}
            </div>
          )}
          <FormStatus status={status} />
        </div>
      </div>
    </Card>
  );
}

// The contract answers an unusable image with 500 (or 413 past the size limit); 400/415 mean the same here.
const rejected = (error: unknown) => error instanceof ApiError && [400, 413, 415, 500].includes(error.status);
