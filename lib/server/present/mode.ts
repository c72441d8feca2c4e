import "server-only";
/** The contract's serialisation modes: `light` drops fields, `full` adds them. */
export type Mode = "light" | "default" | "full";

export const modeOf = (q: { full?: boolean; light?: boolean }): Mode => (q.full ? "full" : q.light ? "light" : "default");
