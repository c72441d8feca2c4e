import "server-only";
import { z } from "zod";
import * as accountSecurity from "@/lib/contracts/account-security";
import * as account from "@/lib/contracts/account";
import * as alerts from "@/lib/contracts/alerts";
import * as annotations from "@/lib/contracts/annotations";
import * as archives from "@/lib/contracts/archives";
import * as config from "@/lib/contracts/config";
import * as delegates from "@/lib/contracts/delegates";
import * as emails from "@/lib/contracts/emails";
import * as engagement from "@/lib/contracts/engagement";
import * as files from "@/lib/contracts/files";
import * as folders from "@/lib/contracts/folders";
import * as groups from "@/lib/contracts/groups";
import * as identityLinks from "@/lib/contracts/identity-links";
import * as identityProviders from "@/lib/contracts/identity-providers";
import * as invitations from "@/lib/contracts/invitations";
import * as jobs from "@/lib/contracts/jobs";
import * as links from "@/lib/contracts/links";
import * as locks from "@/lib/contracts/locks";
import * as logs from "@/lib/contracts/logs";
import * as mfa from "@/lib/contracts/mfa";
import * as oauth2 from "@/lib/contracts/oauth2";
import * as options from "@/lib/contracts/options";
import * as previews from "@/lib/contracts/previews";
import * as rights from "@/lib/contracts/rights";
import * as shareEmails from "@/lib/contracts/share-emails";
import * as sharelinks from "@/lib/contracts/sharelinks";
import * as shares from "@/lib/contracts/shares";
import * as signIn from "@/lib/contracts/sign-in";
import * as signatures from "@/lib/contracts/signatures";
import * as sms from "@/lib/contracts/sms";
import * as sso from "@/lib/contracts/sso";
import * as stats from "@/lib/contracts/stats";
import * as storage from "@/lib/contracts/storage";
import * as tags from "@/lib/contracts/tags";
import * as templates from "@/lib/contracts/templates";
import * as texts from "@/lib/contracts/texts";
import * as timelines from "@/lib/contracts/timelines";
import * as trash from "@/lib/contracts/trash";
import * as ulinks from "@/lib/contracts/ulinks";
import * as uploads from "@/lib/contracts/uploads";
import * as users from "@/lib/contracts/users";
import * as workflows from "@/lib/contracts/workflows";
import { jsonSchema } from "./json-schema";

type JsonSchema = Record<string, unknown>;

// Files first: where two modules export the same schema, the resource's own module names it.
const CONTRACT_MODULES: Record<string, unknown>[] = [
  files, folders, trash, annotations, locks, rights, alerts, users, invitations, groups, account, accountSecurity, mfa, signIn,
  options, delegates, emails, shares, sharelinks, shareEmails, engagement, links, ulinks, uploads, templates, workflows, logs,
  signatures, config, archives, stats, storage, identityProviders, identityLinks, oauth2, tags, timelines, previews, texts, jobs, sms, sso,
];

/** The contract's response schemas by name (`fileResponse` → `File`), so the document names them once under components. */
function namedResponses(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const taken = new Set<string>();
  for (const mod of CONTRACT_MODULES) {
    for (const [exportName, value] of Object.entries(mod)) {
      if (!exportName.endsWith("Response") || !(value instanceof z.ZodType) || registry.has(value)) continue;
      const base = exportName.replace(/Response$/, "");
      const name = base.charAt(0).toUpperCase() + base.slice(1);
      if (!name || taken.has(name)) continue;
      taken.add(name);
      registry.add(value, { id: name });
    }
  }
  return registry;
}

/**
 * zod → JSON Schema (2020-12, OpenAPI 3.1's dialect) for the whole document: requests on the
 * input side (what a client may send), answers on the output side (what it receives), the
 * contract's named answers hoisted once into `components.schemas` and referenced from there.
 */
export class SchemaBook {
  readonly components: Record<string, JsonSchema> = {};
  private readonly registry = namedResponses();

  input(schema: unknown): JsonSchema {
    return jsonSchema(schema);
  }

  output(schema: z.ZodType): JsonSchema {
    const converted = z.toJSONSchema(schema, { io: "output", unrepresentable: "any", metadata: this.registry, cycles: "ref", reused: "inline" }) as JsonSchema;
    const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
    delete converted.$defs;
    for (const [name, def] of Object.entries(defs)) this.components[name] ??= tidy(relink(def) as JsonSchema);
    return tidy(relink(converted) as JsonSchema);
  }
}

/** `#/$defs/X` (zod's per-schema definitions) → `#/components/schemas/X`. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, key === "$ref" && typeof v === "string" ? v.replace(/^#\/\$defs\//, "#/components/schemas/") : relink(v)]),
  );
}

/** The dialect is declared once by the document; a date-time's format says what zod's long pattern does. */
function tidy(schema: JsonSchema): JsonSchema {
  delete schema.$schema;
  delete schema.$id;
  return stripDatePatterns(schema) as JsonSchema;
}

function stripDatePatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDatePatterns);
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value).filter(([key]) => !(key === "pattern" && (value as JsonSchema).format === "date-time"));
  return Object.fromEntries(entries.map(([key, v]) => [key, stripDatePatterns(v)]));
}
