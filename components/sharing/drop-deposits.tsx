"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import { ulinkDepositsQuery, type UlinkResponse } from "@/lib/queries/sharing";
import { formatBytes } from "../file-browser/format";
import styles from "./sharing.module.css";

/** A drop link's deposits grouped by who said they sent them (issue 29), read when the owner opens them. */
export function DropDeposits({ link }: { link: UlinkResponse }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const label = t("drop.depositsOf", { name: link.name ?? link.folder ?? "" });
  return (
    <div className={styles.stack}>
      <div>
        <Button size="small" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t("drop.showDeposits")}
        </Button>
      </div>
      {open && <DepositList ulinkId={link.id} label={label} />}
    </div>
  );
}

function DepositList({ ulinkId, label }: { ulinkId: number; label: string }) {
  const t = useT();
  const groups = useQuery(ulinkDepositsQuery(ulinkId));
  if (groups.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (groups.isError) return <p role="alert">{t("error.generic")}</p>;
  if (groups.data.length === 0) return <p className={styles.muted}>{t("drop.noDeposits")}</p>;
  return (
    <ul className={styles.depositors} aria-label={label}>
      {groups.data.map((group) => (
        <li key={`${group.name}\n${group.email}`} className={styles.depositor} data-testid="depositor">
          <p className={styles.depositorHead}>
            <strong>{group.name ?? (group.email ? "" : t("drop.anonymous"))}</strong>
            {group.email && <a href={`mailto:${group.email}`}>{group.email}</a>}
            <span className={styles.muted}>
              <LocalTime iso={group.date} />
            </span>
          </p>
          <ul className={styles.depositFiles}>
            {group.files.map((file, i) => (
              <li key={`${file.id ?? file.name}-${i}`}>
                {file.name} <span className={styles.muted}>· {formatBytes(file.size)}</span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
