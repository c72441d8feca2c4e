import type { AuthedCtx } from "../context";
import { AppError } from "../errors";

/**
 * POST /token/template/(id)/(type): file templates are not built yet, so no template exists and
 * every id is a 404 `template_not_found`; the route keeps its place so clients get the contract's
 * error body rather than a generic 404.
 */
export async function createTemplateToken(_ctx: AuthedCtx, id: number): Promise<never> {
  throw new AppError("template_not_found", `File template ${id} not found`);
}
