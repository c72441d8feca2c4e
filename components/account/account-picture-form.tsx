"use client";

import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { useImageUpload } from "@/components/ui/use-image-upload";
import buttonStyles from "@/components/ui/button.module.css";
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
  const { status, busy, choose, clear } = useImageUpload({
    upload,
    remove,
    maxBytes: MAX_BYTES,
    describe: (error) => describeError(error, t),
    messages: {
      notImage: t("account.pictureNotImage"),
      tooLarge: t("account.pictureTooLarge"),
      uploading: t("account.pictureUploading"),
      updated: t("account.pictureUpdated"),
      rejected: t("account.pictureRejected"),
      removed: t("account.pictureRemoved"),
    },
  });

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
