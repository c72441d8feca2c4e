import "server-only";
import { FINAL_STATES, stateName, type WorkflowFlux, type WorkflowState } from "@/lib/contracts/workflows";
import type { WorkflowParticipantRow } from "@/db/schema";

/** The flux's name and description are translation keys (contract: Workflow instance `flux`). */
export const fluxInfo = (flux: number) => ({ id: flux, name: `workflow.flux.${flux}.name`, description: `workflow.flux.${flux}.description` });

export const presentState = (state: WorkflowState) => ({ id: state, name: stateName(state) });

export const isFinal = (state: string) => (FINAL_STATES as readonly string[]).includes(state);

/** The state an instance starts in: validations wait for validators, the others for a signature. */
export const initialState = (flux: WorkflowFlux): WorkflowState => (flux === 1 || flux === 4 ? "waiting_validation" : "waiting_signature");

/** Flux 1 and 4: every validator must validate, any refusal refuses (api.md). */
export function validationOutcome(decisions: (string | null)[]): WorkflowState {
  if (decisions.includes("refused")) return "refused";
  if (decisions.length > 0 && decisions.every((d) => d === "validated")) return "validated";
  return "waiting_validation";
}

type Transition = { id: WorkflowState; name: string };

/**
 * The moves offered to one participant (the contract's `transitions_available`: transition name
 * → target states). Nothing once the instance is final or the participant has decided. Flux 2's
 * `signed` is reached only by sending the scanned document (POST .../upload), never by a bare
 * transition, so its signer is offered refusal alone.
 */
export function transitionsFor(flux: number, state: string, participant: Pick<WorkflowParticipantRow, "role" | "decision">): Record<string, Transition[]> {
  if (isFinal(state) || participant.decision) return {};
  if ((flux === 1 || flux === 4) && state === "waiting_validation" && participant.role !== "signer") {
    return { validation: [presentState("validated"), presentState("refused")] };
  }
  if (flux === 2 && state === "waiting_signature" && participant.role === "signer") {
    return { signature: [presentState("refused")] };
  }
  return {};
}

/**
 * Flux 3 and 5 follow their signature request (api.md): read from its status, never stored
 * ahead of it. An expired request ends the instance as cancelled: nobody refused.
 */
export function stateFromSignatureStatus(status: string | null | undefined): WorkflowState {
  switch (status) {
    case "done":
      return "signed";
    case "refused":
      return "refused";
    case "cancelled":
    case "expired":
      return "cancelled";
    default:
      return "waiting_signature";
  }
}
