"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import type { WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { useT } from "@/lib/i18n/provider";
import { myWorkflowsQuery, toValidateQuery, useCancelWorkflow } from "@/lib/queries/workflows";
import { decisionLabel, fluxLabel, stateLabel } from "./workflow-labels";
import { reasonOf, WorkflowReview } from "./workflow-review";
import styles from "./workflows.module.css";

/** "Validations": what I am asked to validate (and can decide here), and the validations I started. */
export function WorkflowsScreen() {
  const t = useT();
  const toValidate = useQuery(toValidateQuery());
  const mine = useQuery(myWorkflowsQuery());
  const pending = (toValidate.data ?? []).filter((i) => Object.keys(i.transitions_available).length > 0);
  const answered = (toValidate.data ?? []).filter((i) => Object.keys(i.transitions_available).length === 0);
  return (
    <div className={styles.stack}>
      <PageHeader title={t("workflow.page.title")} subtitle={t("workflow.page.subtitle")} />
      <section className={styles.section} aria-labelledby="wf-to-validate">
        <h2 id="wf-to-validate" className={styles.heading}>
          {t("workflow.page.toValidate")}
        </h2>
        {toValidate.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {toValidate.isError && <p role="alert">{t("error.generic")}</p>}
        {toValidate.data && pending.length === 0 && <p className={styles.muted}>{t("workflow.page.noneToValidate")}</p>}
        <ul className={styles.list} data-testid="workflows-to-validate">
          {[...pending, ...answered].map((instance) => (
            <ToValidateCard key={instance.id} instance={instance} />
          ))}
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="wf-mine">
        <h2 id="wf-mine" className={styles.heading}>
          {t("workflow.page.mine")}
        </h2>
        {mine.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {mine.isError && <p role="alert">{t("error.generic")}</p>}
        {mine.data?.length === 0 && <p className={styles.muted}>{t("workflow.page.noneMine")}</p>}
        <ul className={styles.list} data-testid="workflows-mine">
          {mine.data?.map((instance) => (
            <MineCard key={instance.id} instance={instance} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function StateChip({ state }: { state: WorkflowInstanceResponse["state"] }) {
  const t = useT();
  return (
    <span className={`${styles.chip} ${styles[`chip_${state.id}`] ?? ""}`} data-testid="workflow-state">
      {stateLabel(t, state)}
    </span>
  );
}

function Title({ instance }: { instance: WorkflowInstanceResponse }) {
  const t = useT();
  const names = instance.documents.map((d) => d.name).join(", ");
  return (
    <div className={styles.row}>
      <strong className={styles.documentName}>{names || fluxLabel(t, instance.flux)}</strong>
      <StateChip state={instance.state} />
    </div>
  );
}

function ToValidateCard({ instance }: { instance: WorkflowInstanceResponse }) {
  const t = useT();
  const awaited = Object.keys(instance.transitions_available).length > 0;
  const [open, setOpen] = useState(false);
  return (
    <li className={styles.card} data-testid="workflow-card">
      <Title instance={instance} />
      <p className={styles.muted}>
        {fluxLabel(t, instance.flux)} · {t("workflow.page.from", { owner: instance.owner })} · <LocalTime iso={instance.creation} />
      </p>
      {awaited && (
        <div>
          <Button size="small" variant={open ? "secondary" : "primary"} onClick={() => setOpen(!open)} aria-expanded={open}>
            {t(open ? "workflow.page.hide" : "workflow.page.review")}
          </Button>
        </div>
      )}
      {(open || !awaited) && <WorkflowReview instance={instance} linkKey={instance.id} />}
    </li>
  );
}

function MineCard({ instance }: { instance: WorkflowInstanceResponse }) {
  const t = useT();
  const toast = useToast();
  const cancel = useCancelWorkflow();
  return (
    <li className={styles.card} data-testid="workflow-card">
      <Title instance={instance} />
      <p className={styles.muted}>
        {fluxLabel(t, instance.flux)} · <LocalTime iso={instance.creation} />
      </p>
      {(instance.validators?.length ?? 0) > 0 && (
        <ul className={styles.people} aria-label={t("workflow.page.validators")}>
          {instance.validators!.map((v) => (
            <li key={v.id} className={styles.person}>
              <span className={styles.personName}>{v.name ? `${v.name} <${v.email}>` : v.email}</span>
              <span className={`${styles.chip} ${v.decision ? (styles[`chip_${v.decision}`] ?? "") : styles.chip_waiting_validation}`}>{decisionLabel(t, v.decision)}</span>
              {v.comment && <span className={styles.muted}>“{v.comment}”</span>}
            </li>
          ))}
        </ul>
      )}
      {!instance.is_closed && (
        <div>
          <Button
            size="small"
            variant="danger"
            disabled={cancel.isPending}
            onClick={() => {
              if (!window.confirm(t("workflow.page.cancelConfirm"))) return;
              cancel.mutate(instance.id, {
                onSuccess: () => toast({ tone: "info", message: t("workflow.page.cancelled") }),
                onError: (e) => toast({ tone: "error", message: reasonOf(e, t) }),
              });
            }}
          >
            {t("workflow.page.cancel")}
          </Button>
        </div>
      )}
    </li>
  );
}
