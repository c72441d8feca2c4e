"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { timeZoneLabel } from "@/lib/contracts/time-zones";
import type { MessageKey } from "@/lib/i18n/translate";
import { displayName, useAccount } from "@/lib/queries/account";
import { groupsQuery, optionsQuery, useDeleteOptions, usersQuery, useUpdateOptions, type ConnectionOptions } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { describePeopleError, isLockOut, useDebounced } from "./shared";

/** The contract's day bits; Sunday has two (1 and 128) and either allows it. */
const DAYS: { bits: number; key: MessageKey }[] = [
  { bits: 2, key: "adminPeople.options.day.mon" },
  { bits: 4, key: "adminPeople.options.day.tue" },
  { bits: 8, key: "adminPeople.options.day.wed" },
  { bits: 16, key: "adminPeople.options.day.thu" },
  { bits: 32, key: "adminPeople.options.day.fri" },
  { bits: 64, key: "adminPeople.options.day.sat" },
  { bits: 1 | 128, key: "adminPeople.options.day.sun" },
];
const OAUTH_WEB = 1;

/** /admin/options?target=<user or group id>: who may connect from where and when (days and hours in the platform's time zone). */
export function OptionsScreen({ target }: { target: string | null }) {
  const t = useT();
  return (
    <div className={styles.screen}>
      <PageHeader title={t("adminPeople.options.title")} subtitle={t("adminPeople.options.subtitle")} />
      <TargetPicker />
      <p className={styles.note} data-testid="lockout-rule">
        {t("adminPeople.options.guard")}
      </p>
      {target ? <OptionsForm key={target} targetId={target} /> : <p className={styles.state}>{t("adminPeople.options.pick")}</p>}
    </div>
  );
}

/** Search users and groups; picking one opens its options. */
function TargetPicker() {
  const t = useT();
  const router = useRouter();
  const resultsId = useId();
  const [keyword, setKeyword] = useState("");
  const search = useDebounced(keyword.trim());
  const enabled = search.length > 0;
  const users = useQuery({ ...usersQuery({ keyword: search, offset: 0, limit: 10 }), enabled });
  const groups = useQuery({ ...groupsQuery({ keyword: search, offset: 0, limit: 10 }), enabled });
  const results = [
    ...(groups.data?.objects ?? []).map((g) => ({ id: g.id, name: g.login, sub: t("adminPeople.options.group") })),
    ...(users.data?.objects ?? []).map((u) => ({ id: u.id, name: displayName(u), sub: `${t("adminPeople.options.user")} · ${u.login}` })),
  ];
  return (
    <div className={styles.fieldset} role="search">
      <TextField label={t("adminPeople.options.find")} type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} aria-controls={resultsId} autoComplete="off" />
      <ul id={resultsId} className={styles.results} aria-label={t("adminPeople.picker.results")} hidden={!enabled}>
        {enabled && (users.isSuccess || groups.isSuccess) && results.length === 0 && (
          <li className={styles.hint} style={{ padding: "8px 12px" }}>
            {t("adminPeople.picker.noMatch")}
          </li>
        )}
        {results.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              className={styles.resultButton}
              onClick={() => {
                setKeyword("");
                router.push(`/admin/options?target=${r.id}`);
              }}
            >
              <span>{r.name}</span>
              <span className={styles.sub}>{r.sub}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Form = { filterIps: boolean; ips: string; days: number; hourStart: string; hourEnd: string; blockWeb: boolean; netsync: boolean };

const toForm = (o: ConnectionOptions): Form => ({
  filterIps: o.ips !== null,
  ips: (o.ips ?? []).join("\n"),
  days: o.days & 128 ? o.days | 1 : o.days,
  hourStart: o.hour_start ?? "",
  hourEnd: o.hour_end ?? "",
  blockWeb: (o.oauth_blocked & OAUTH_WEB) !== 0,
  netsync: o.can_netsync,
});

function OptionsForm({ targetId }: { targetId: string }) {
  const t = useT();
  const options = useQuery(optionsQuery(targetId));
  // Outside the fields, so that the answer to a save stays on screen when the fields are read again.
  const [status, setStatus] = useState<Status>(null);
  const [lockedOut, setLockedOut] = useState(false);
  if (options.isError) return <p role="alert" className={styles.state}>{describePeopleError(options.error, t)}</p>;
  if (!options.data) return <p className={styles.state}>{t("common.loading")}</p>;
  return (
    <OptionsFields
      key={options.dataUpdatedAt}
      targetId={targetId}
      data={options.data}
      status={status}
      lockedOut={lockedOut}
      onStatus={(next, isLockedOut = false) => {
        setStatus(next);
        setLockedOut(isLockedOut);
      }}
    />
  );
}

type FieldsProps = { targetId: string; data: ConnectionOptions; status: Status; lockedOut: boolean; onStatus: (status: Status, lockedOut?: boolean) => void };

function OptionsFields({ targetId, data, status, lockedOut, onStatus }: FieldsProps) {
  const t = useT();
  const { data: me } = useAccount();
  const update = useUpdateOptions();
  const remove = useDeleteOptions();
  const [form, setForm] = useState<Form>(() => toForm(data));
  const [badIps, setBadIps] = useState(false);
  const headingId = useId();
  // A group's options reach every member, administrators included: only administrators change them.
  const readOnly = data.target_isgroup && me?.role !== 3;
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });

  async function save() {
    onStatus(null);
    setBadIps(false);
    const ips = form.filterIps ? form.ips.split(/[\s,]+/).filter(Boolean) : null;
    try {
      const saved = await update.mutateAsync({
        id: targetId,
        input: {
          ips,
          days: form.days & 1 ? form.days | 128 : form.days & ~128,
          hour_start: form.hourStart || null,
          hour_end: form.hourEnd || null,
          can_netsync: form.netsync,
          oauth_blocked: form.blockWeb ? data.oauth_blocked | OAUTH_WEB : data.oauth_blocked & ~OAUTH_WEB,
        },
      });
      setForm(toForm(saved));
      onStatus({ tone: "success", message: t("adminPeople.options.saved") });
    } catch (e) {
      setBadIps(e instanceof ApiError && e.fields.some((f) => f.startsWith("ips")));
      onStatus({ tone: "error", message: describePeopleError(e, t) }, isLockOut(e));
    }
  }

  async function reset() {
    onStatus(null);
    try {
      await remove.mutateAsync(targetId);
      onStatus({ tone: "success", message: t("adminPeople.options.removed") });
    } catch (e) {
      onStatus({ tone: "error", message: describePeopleError(e, t) }, isLockOut(e));
    }
  }

  return (
    <form
      className={styles.panel}
      aria-labelledby={headingId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div>
        <h2 id={headingId}>{t(data.target_isgroup ? "adminPeople.options.forGroup" : "adminPeople.options.forUser", { name: data.target })}</h2>
        <p className={styles.hint}>
          {data.target_isgroup ? t("adminPeople.options.groupHint") : data.inherited ? t("adminPeople.options.inherited") : t("adminPeople.options.own")}
        </p>
      </div>
      <fieldset className={styles.fieldset} disabled={readOnly}>
        <legend className={styles.legend}>{t("adminPeople.options.ips")}</legend>
        <label className={styles.check}>
          <input type="checkbox" checked={form.filterIps} onChange={(e) => set({ filterIps: e.target.checked })} />
          {t("adminPeople.options.filterIps")}
        </label>
        {form.filterIps && (
          <>
            <label htmlFor={`${headingId}-ips`} className={styles.hint}>
              {t("adminPeople.options.ipsHint")}
            </label>
            <textarea id={`${headingId}-ips`} className={styles.textarea} value={form.ips} onChange={(e) => set({ ips: e.target.value })} aria-invalid={badIps || undefined} spellCheck={false} />
            {form.ips.trim() === "" && <p className={styles.hint}>{t("adminPeople.options.ipsEmpty")}</p>}
          </>
        )}
      </fieldset>
      <fieldset className={styles.fieldset} disabled={readOnly}>
        <legend className={styles.legend}>{t("adminPeople.options.days")}</legend>
        <div className={styles.checks}>
          {DAYS.map((d) => (
            <label key={d.bits} className={styles.check}>
              <input type="checkbox" checked={(form.days & d.bits) !== 0} onChange={(e) => set({ days: e.target.checked ? form.days | d.bits : form.days & ~d.bits })} />
              {t(d.key)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.fieldset} disabled={readOnly}>
        <legend className={styles.legend}>{t("adminPeople.options.hoursIn", { zone: timeZoneLabel(data.time_zone) })}</legend>
        <div className={styles.grid}>
          <TextField label={t("adminPeople.options.hourStart")} type="time" value={form.hourStart} onChange={(e) => set({ hourStart: e.target.value })} />
          <TextField label={t("adminPeople.options.hourEnd")} type="time" value={form.hourEnd} onChange={(e) => set({ hourEnd: e.target.value })} />
        </div>
        <p className={styles.hint} data-testid="hours-zone">
          {t("adminPeople.options.hoursZoneHint", { zone: timeZoneLabel(data.time_zone) })}
        </p>
      </fieldset>
      <fieldset className={styles.fieldset} disabled={readOnly}>
        <legend className={styles.legend}>{t("adminPeople.options.access")}</legend>
        <label className={styles.check}>
          <input type="checkbox" checked={form.blockWeb} onChange={(e) => set({ blockWeb: e.target.checked })} />
          {t("adminPeople.options.blockWeb")}
        </label>
        <label className={styles.check}>
          <input type="checkbox" checked={form.netsync} onChange={(e) => set({ netsync: e.target.checked })} />
          {t("adminPeople.options.netsync")}
        </label>
      </fieldset>
      {readOnly && <p className={styles.hint}>{t("adminPeople.options.readOnly")}</p>}
      <FormStatus status={status} banner />
      {lockedOut && (
        <p className={styles.note} data-testid="lockout-explained">
          {t("adminPeople.options.lockedOutHelp")}
        </p>
      )}
      {!readOnly && (
        <div className={styles.row}>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? t("common.saving") : t("common.save")}
          </Button>
          {!data.target_isgroup && !data.inherited && (
            <Button variant="secondary" disabled={remove.isPending} onClick={() => void reset()}>
              {t("adminPeople.options.remove")}
            </Button>
          )}
          {data.target_isgroup && (
            <Button variant="secondary" disabled={remove.isPending} onClick={() => void reset()}>
              {t("adminPeople.options.removeGroup")}
            </Button>
          )}
        </div>
      )}
    </form>
  );
}
