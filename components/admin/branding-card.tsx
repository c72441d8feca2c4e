"use client";

import { useState, type FormEvent } from "react";
import { Brand, brandStyle } from "@/components/brand";
import { Button } from "@/components/ui/button";
import buttonStyles from "@/components/ui/button.module.css";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useImageUpload } from "@/components/ui/use-image-upload";
import { DEFAULT_BRAND_COLOR, readableAccent } from "@/lib/contracts/config";
import { useT } from "@/lib/i18n/provider";
import { useRemoveLogo, useUpdateConfig, useUploadLogo, type Config } from "@/lib/queries/admin-config";
import styles from "./admin.module.css";
import card from "./branding-card.module.css";
import { describeAdminError } from "./describe-error";

const MAX_LOGO_BYTES = 2 * 1024 * 1024; // POST /api/config/logo's limit
const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * The platform's brand (issue 13): the accent colour (a colour picker and its hex code, kept in
 * step) saved through PUT /api/config, and the logo uploaded, previewed and removed through
 * /api/config/logo. Both show on the sign-in and public pages and in mails.
 */
export function BrandingCard({ config }: { config: Config }) {
  const t = useT();
  return (
    <div data-testid="branding-card">
      <Card title={t("admin.branding.title")} description={t("admin.branding.description")}>
        <div className={styles.form}>
          <ColorForm initial={config.brand_color} platformName={config.platform_name} logoUrl={config.logo_url} />
          <LogoForm logoUrl={config.logo_url} />
        </div>
      </Card>
    </div>
  );
}

function ColorForm({ initial, platformName, logoUrl }: { initial: string; platformName: string; logoUrl: string | null }) {
  const t = useT();
  const update = useUpdateConfig();
  const [hex, setHex] = useState(initial);
  const [status, setStatus] = useState<Status>(null);
  const valid = HEX.test(hex.trim());
  const color = valid ? hex.trim().toLowerCase() : initial;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!valid) return setStatus({ tone: "error", message: t("admin.branding.colorInvalid") });
    setStatus(null);
    try {
      await update.mutateAsync({ brand_color: color });
      setStatus({ tone: "success", message: t("common.saved") });
    } catch (error) {
      setStatus({ tone: "error", message: describeAdminError(error, t) });
    }
  }

  return (
    <form className={styles.form} onSubmit={save} noValidate>
      <div className={card.colorRow}>
        <label className={card.picker}>
          <span className={card.pickerLabel}>{t("admin.branding.color")}</span>
          <input type="color" value={color} onChange={(e) => setHex(e.target.value)} />
        </label>
        <TextField
          label={t("admin.branding.colorHex")}
          hint={t("admin.branding.colorHint")}
          value={hex}
          onChange={(e) => setHex(e.target.value)}
          error={hex.trim() && !valid ? t("admin.branding.colorInvalid") : null}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
        />
        <Button variant="secondary" onClick={() => setHex(DEFAULT_BRAND_COLOR)} disabled={color === DEFAULT_BRAND_COLOR}>
          {t("admin.branding.resetColor")}
        </Button>
      </div>
      {readableAccent(color) !== color && <p className={styles.muted}>{t("admin.branding.colorDarkened")}</p>}
      <div className={card.preview} style={brandStyle(color)} aria-label={t("admin.branding.preview")} role="group">
        <Brand name={platformName} logoUrl={logoUrl} />
        <span className={`${buttonStyles.button} ${buttonStyles.primary}`} aria-hidden="true">
          {t("admin.branding.previewButton")}
        </span>
      </div>
      <FormStatus status={status} />
      <div className={styles.actions}>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t("common.saving") : t("common.save")}
        </Button>
      </div>
    </form>
  );
}

function LogoForm({ logoUrl }: { logoUrl: string | null }) {
  const t = useT();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const { status, busy, choose, clear } = useImageUpload({
    upload,
    remove,
    maxBytes: MAX_LOGO_BYTES,
    describe: (error) => describeAdminError(error, t),
    messages: {
      notImage: t("admin.branding.logoNotImage"),
      tooLarge: t("admin.branding.logoTooLarge"),
      uploading: t("admin.branding.logoUploading"),
      updated: t("admin.branding.logoUpdated"),
      rejected: t("admin.branding.logoRejected"),
      removed: t("admin.branding.logoRemoved"),
    },
  });

  return (
    <div className={card.logo}>
      <h3 className={card.subtitle}>{t("admin.branding.logo")}</h3>
      <p className={styles.muted}>{t("admin.branding.logoHint")}</p>
      <div className={card.logoRow}>
        <div className={card.logoFrame}>
          {logoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={logoUrl} alt={t("admin.branding.logoAlt")} className={card.logoImage} />
          ) : (
            <span className={styles.muted}>{t("admin.branding.logoNone")}</span>
          )}
        </div>
        <div className={styles.actions}>
          <label className={`${buttonStyles.button} ${buttonStyles.secondary} ${card.fileButton}`} aria-disabled={busy || undefined}>
            <input type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/avif,image/tiff,image/svg+xml" onChange={choose} disabled={busy} />
            {logoUrl ? t("admin.branding.logoReplace") : t("admin.branding.logoChoose")}
          </label>
          {logoUrl && (
            <Button variant="danger" onClick={clear} disabled={busy}>
              {t("admin.branding.logoRemove")}
            </Button>
          )}
        </div>
      </div>
      <FormStatus status={status} />
    </div>
  );
}

