import "server-only";
import packageJson from "@/package.json";
import { LANGUAGES } from "@/lib/contracts/users";
import type { Ctx } from "../context";
import { getPlatformConfig, logoPath } from "./platform-config";

/** GET /publicconfig (no token): what the sign-in and public pages need; nothing secret. */
export async function readPublicConfig(ctx: Ctx) {
  const config = await getPlatformConfig(ctx.db);
  return {
    platform_name: config.platform_name,
    brand_color: config.brand_color,
    logo_url: logoPath(config.logo),
    features: config.features,
    password_min_length: config.password_min_length,
    languages: [...LANGUAGES],
    version: packageJson.version,
  };
}
