"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { displayName } from "@/lib/queries/account";
import { usersQuery } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { useDebounced } from "./shared";

export type Picked = { id: string; name: string };

type Props = {
  legend: string;
  picked: Picked[];
  onChange: (picked: Picked[]) => void;
  /** Only users with this role may be picked (managers of a group are role 4). */
  role?: number;
  disabled?: boolean;
};

/** Chosen people as removable chips, and a search (GET /api/users) to add more. */
export function UserPicker({ legend, picked, onChange, role, disabled }: Props) {
  const t = useT();
  const resultsId = useId();
  const [keyword, setKeyword] = useState("");
  const search = useDebounced(keyword.trim());
  const found = useQuery({ ...usersQuery({ keyword: search, offset: 0, limit: 20 }), enabled: search.length > 0 && !disabled });
  const results = (found.data?.objects ?? []).filter((u) => (role === undefined || u.role === role) && !picked.some((p) => p.id === u.id));

  return (
    <fieldset className={styles.fieldset} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      {picked.length === 0 ? (
        <p className={styles.hint}>{t("adminPeople.picker.none")}</p>
      ) : (
        <div className={styles.chips}>
          {picked.map((p) => (
            <button key={p.id} type="button" className={styles.chipRemove} aria-label={t("adminPeople.picker.remove", { name: p.name })} onClick={() => onChange(picked.filter((x) => x.id !== p.id))}>
              {p.name}
              <span aria-hidden="true">×</span>
            </button>
          ))}
        </div>
      )}
      <TextField label={t("adminPeople.picker.add")} type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} aria-controls={resultsId} autoComplete="off" />
      <ul id={resultsId} className={styles.results} aria-label={t("adminPeople.picker.results")} hidden={search.length === 0}>
        {search.length > 0 && found.isSuccess && results.length === 0 && <li className={styles.hint} style={{ padding: "8px 12px" }}>{t("adminPeople.picker.noMatch")}</li>}
        {results.map((u) => (
          <li key={u.id}>
            <button
              type="button"
              className={styles.resultButton}
              onClick={() => {
                onChange([...picked, { id: u.id, name: displayName(u) }]);
                setKeyword("");
              }}
            >
              <span>{displayName(u)}</span>
              <span className={styles.sub}>{u.login}</span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
