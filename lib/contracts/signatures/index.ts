/** The signature contract: `@/lib/contracts/signatures` keeps importing from here. */
export * from "./common";
export * from "./requests";
export * from "./responses";
