import { UAParser } from "ua-parser-js";

/** "Firefox 128 · Linux", from a browser's user agent; a program's own (rclone, curl) is shown as it is. */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const ua = new UAParser(userAgent).getResult();
  const browser = [ua.browser.name, ua.browser.major].filter(Boolean).join(" ");
  const os = [ua.os.name, ua.os.version].filter(Boolean).join(" ");
  if (!browser) return userAgent.slice(0, 80);
  return os ? `${browser} · ${os}` : browser;
}
