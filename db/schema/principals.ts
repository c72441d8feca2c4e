import { pgSequence } from "drizzle-orm/pg-core";

// Users and groups share one id space: rights, alerts and connection options name a
// target by id alone (the contract's Right has no "is group" field), so ids never collide.
export const principalIdSeq = pgSequence("principal_id_seq", { startWith: 1000 });
