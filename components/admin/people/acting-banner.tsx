"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { actingAsSnapshot, parseActingAs, setActingAs, subscribeActingAs } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { accountKeys } from "@/lib/queries/account";
import styles from "./people.module.css";

/**
 * Across the top of every signed-in page while an administrator or manager acts as someone else
 * (every API call then carries AsId): who, and the way back.
 */
export function ActingBanner() {
  const t = useT();
  const queryClient = useQueryClient();
  const raw = useSyncExternalStore(subscribeActingAs, actingAsSnapshot, () => null);
  const acting = parseActingAs(raw);

  // The page was rendered for the real user: the account (name in the menu, role) is read again as the acted one.
  useEffect(() => {
    if (raw) void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
  }, [raw, queryClient]);

  if (!acting) return null;
  return (
    <div className={styles.acting} role="region" aria-label={t("adminPeople.actingRegion")} data-testid="acting-banner">
      <span>{t("adminPeople.actingAs", { name: acting.name })}</span>
      <button
        type="button"
        className={styles.actingStop}
        onClick={() => {
          setActingAs(null);
          // A full load: nothing cached for the acted user survives.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign("/admin/users");
        }}
      >
        {t("adminPeople.actingStop")}
      </button>
    </div>
  );
}
