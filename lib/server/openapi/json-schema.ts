import "server-only";
import { z } from "zod";

/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends for a zod schema. */
export function jsonSchema(schema: unknown): Record<string, unknown> {
  const converted = z.toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  // The document declares its dialect once (OpenAPI 3.1 is JSON Schema 2020-12).
  delete converted.$schema;
  return converted;
}
