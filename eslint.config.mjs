import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers import one way: app -> lib/server -> db, lib/storage -> lib/config; the web client
// (components, lib/queries, lib/api-client.ts) reaches the server through HTTP only; lib/contracts,
// shared by both sides, imports zod and itself (issue 19, part 2; scripts/import-graph.mjs prints
// the whole graph). Paths are resolved, so `@/` and relative imports are both caught.
const CLIENT = ["./components", "./lib/queries", "./lib/api-client.ts", "./lib/i18n"];
const SERVER = ["./lib/server", "./db", "./lib/storage", "./lib/config"];
const layer = (target, from, message) => ({ target, from, message });
const LAYERS = [
  layer(CLIENT, [...SERVER, "./app"], "Client code reaches the server through the API (lib/api-client.ts), never by import."),
  layer("./lib/contracts", [...SERVER, ...CLIENT, "./app"], "lib/contracts is shared by the server and the web client: it imports zod and itself only."),
  layer("./lib/server", ["./app", ...CLIENT.filter((p) => p !== "./lib/i18n")], "lib/server is called by app, never the other way round."),
  layer("./db", ["./lib/server", "./lib/storage", "./app", ...CLIENT], "db imports nothing from the layers above it (lib/config only)."),
  layer("./lib/storage", ["./lib/server", "./db", "./lib/contracts", "./app", ...CLIENT], "lib/storage imports nothing from the server or the database: it has its own StorageError and reads lib/config."),
  layer("./lib/config", ["./lib/server", "./db", "./lib/storage", "./lib/contracts", "./app", ...CLIENT], "lib/config reads the environment and imports no other layer."),
];

// What JSX text may hold without a catalogue: separators and symbols, the same in every language.
const JSX_PUNCTUATION = ["·", ":", "×", "›", "‹", "🔒", "+", "#", "−", "↓", "↑", "←", "→", "“", "”", "—", "–", "/", "(", ")", "(#", "%", "…", ",", "|", "*"];

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", "data/**", "bench/results/**", "next-env.d.ts", "playwright-report/**", "test-results/**"] },
  { rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { files: ["app/**", "components/**", "lib/**", "db/**", "pages/**"], rules: { "import/no-restricted-paths": ["error", { zones: LAYERS }] } },
  {
    // server.ts answers the API on the raw Node request, outside Next's request scope (issue 26):
    // routes and services read the request they are given, never Next's (pages keep current-user.ts).
    files: ["app/api/**", "lib/server/**"],
    ignores: ["app/api/auth/[[]...nextauth]/**", "lib/server/auth/current-user.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/headers", message: "The API runs outside Next's request scope: read headers and cookies from the request (route.ts gives it)." },
            { name: "next/server", importNames: ["after", "connection", "userAgent"], message: "The API runs outside Next's request scope: no after() or connection(); work after the answer goes to a job." },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/contracts/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(?!zod$|\\./|@/lib/contracts/)", message: "lib/contracts imports zod and itself only." }] }],
    },
  },
  {
    // Issue 32: every visible string comes from the catalogues (lib/i18n/catalogues). Text written
    // in JSX, or a literal label, placeholder, title or alt, fails the lint; punctuation and
    // symbols between translated parts may stay.
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    rules: {
      "react/jsx-no-literals": ["error", { noStrings: false, ignoreProps: true, allowedStrings: JSX_PUNCTUATION }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXAttribute[name.name=/^(aria-label|aria-description|aria-placeholder|placeholder|title|alt|label)$/] > Literal[value=/\\p{L}/u]",
          message: "A visible attribute comes from the catalogues: t(\"...\"), never a literal.",
        },
      ],
    },
  },
];

export default config;
