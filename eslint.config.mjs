import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", "data/**", "bench/results/**", "next-env.d.ts", "playwright-report/**", "test-results/**"] },
  { rules: { "@typescript-eslint/no-explicit-any": "off" } },
];
