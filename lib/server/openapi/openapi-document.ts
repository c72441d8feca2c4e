import { buildOpenApiDocument } from "./build-document";

let built: Promise<unknown> | undefined;

/** The document, built once per process (it changes only with the code). */
export function openApiDocument(): Promise<unknown> {
  if (!built) {
    built = buildOpenApiDocument();
    built.catch(() => (built = undefined));
  }
  return built;
}
