import { UAParser } from "ua-parser-js";

/** "Firefox 128 on Linux", from a user agent; null when it names nothing known (a script's own agent is kept as is). */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const ua = new UAParser(userAgent).getResult();
  const browser = [ua.browser.name, ua.browser.major].filter(Boolean).join(" ");
  const os = [ua.os.name, ua.os.version].filter(Boolean).join(" ");
  if (browser && os) return `${browser} · ${os}`;
  return browser || os || userAgent.slice(0, 80);
}
