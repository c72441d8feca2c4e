import "server-only";
import { PASSWORD_MASK, type ConfigView, type PlatformConfig } from "@/lib/contracts/config";
import { logoPath } from "./platform-config";

/** The configuration as administrators see it: the SMTP password is never sent back, the logo is its address. */
export function presentConfig(config: PlatformConfig): ConfigView {
  const { logo, ...rest } = config;
  return { ...rest, logo_url: logoPath(logo), smtp: { ...config.smtp, smtp_password: config.smtp.smtp_password ? PASSWORD_MASK : "" } };
}
