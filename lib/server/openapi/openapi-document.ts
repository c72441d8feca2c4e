import "server-only";
import { buildOpenApiDocument, type RouteModule } from "./build-document";

let built: Promise<unknown> | undefined;

/**
 * The document, built once per process (it changes only with the code). The route files are
 * passed in by app/api/openapi.json: lib/server never imports app (issue 19, part 2).
 */
export function openApiDocument(routeModules: readonly RouteModule[]): Promise<unknown> {
  if (!built) {
    built = buildOpenApiDocument(routeModules);
    built.catch(() => (built = undefined));
  }
  return built;
}
