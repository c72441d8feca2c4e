"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import { useT } from "@/lib/i18n/provider";
import { sharesQuery, ulinksQuery } from "@/lib/queries/sharing";
import { DropRow } from "./drop-link-dialog";
import { ShareRow } from "./share-row";
import styles from "./sharing.module.css";

/** Every link I made: shares (with what they show and who used them) and drop links, with their state. */
export function LinksScreen() {
  const t = useT();
  const shares = useQuery(sharesQuery());
  const ulinks = useQuery(ulinksQuery());
  return (
    <div className={styles.screen}>
      <PageHeader title={t("links.title")} subtitle={t("links.subtitle")} />
      <Link href="/links/analytics" className={styles.summaryLink}>
        {t("engagement.summaryLink")}
      </Link>
      <section aria-labelledby="links-shares" className={styles.section}>
        <h2 id="links-shares" className={styles.screenHeading}>
          {t("links.shares")}
        </h2>
        {shares.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {shares.isError && <p role="alert">{t("error.generic")}</p>}
        {shares.data?.length === 0 && <p className={styles.muted}>{t("links.noShares")}</p>}
        <ul className={styles.links}>
          {shares.data?.map((share) => (
            <li key={share.id} className={styles.group}>
              <p className={styles.what}>{share.name || share.roots.map((r) => r.name).join(", ")}</p>
              <ul className={styles.links}>
                <ShareRow share={share} />
              </ul>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="links-drops" className={styles.section}>
        <h2 id="links-drops" className={styles.screenHeading}>
          {t("links.drops")}
        </h2>
        {ulinks.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {ulinks.isError && <p role="alert">{t("error.generic")}</p>}
        {ulinks.data?.length === 0 && <p className={styles.muted}>{t("links.noDrops")}</p>}
        <ul className={styles.links}>
          {ulinks.data?.map((link) => (
            <DropRow key={link.id} link={link} />
          ))}
        </ul>
      </section>
    </div>
  );
}
