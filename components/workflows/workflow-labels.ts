import type { MessageKey, Translate } from "@/lib/i18n/translate";

const STATES = ["waiting_validation", "validated", "refused", "waiting_signature", "signed", "cancelled"] as const;

/** A state's words: the API names states by their translation keys (api.md), `workflow.state.<id>`. */
export function stateLabel(t: Translate, state: { id: string }): string {
  return (STATES as readonly string[]).includes(state.id) ? t(`workflow.state.${state.id}` as MessageKey) : state.id;
}

/** A flux's name (`workflow.flux.<n>.name`). */
export function fluxLabel(t: Translate, flux: { id: number }): string {
  return flux.id >= 1 && flux.id <= 5 ? t(`workflow.flux.${flux.id}.name` as MessageKey) : String(flux.id);
}

/** A participant's decision, or that they are still awaited. */
export function decisionLabel(t: Translate, decision: string | null): string {
  return decision ? stateLabel(t, { id: decision }) : t("workflow.page.waiting");
}
