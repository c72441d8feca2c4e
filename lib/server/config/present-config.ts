import { PASSWORD_MASK, type PlatformConfig } from "@/lib/contracts/config";

/** The configuration as administrators see it: the SMTP password is never sent back. */
export function presentConfig(config: PlatformConfig): PlatformConfig {
  return { ...config, smtp: { ...config.smtp, smtp_password: config.smtp.smtp_password ? PASSWORD_MASK : "" } };
}
