/**
 * The platform's time zone (configuration `time_zone`, an IANA name) read through Intl, so that
 * daylight saving time follows the runtime's own tz database. Shared by the server (connection
 * hours are enforced in that zone) and the console (which shows the zone with its GMT offset).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, kind: "clock" | "offset"): Intl.DateTimeFormat {
  const key = `${kind}:${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found =
      kind === "clock"
        ? new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", weekday: "short", hour: "2-digit", minute: "2-digit" })
        : new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    if (formatters.size >= 200) formatters.clear();
    formatters.set(key, found);
  }
  return found;
}

/** Only the characters of IANA names ("Europe/Paris", "Etc/GMT+5", "UTC"): no spaces, controls or bidi marks. */
const NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;

let knownNames: Map<string, string> | undefined;

/**
 * A zone name Intl accepts, in its usual spelling ("utc" → "UTC", "europe/paris" → "Europe/Paris"),
 * or null when unknown. Links keep the name given: ICU's canonical names are sometimes the old ones
 * ("Asia/Katmandu" for "Asia/Kathmandu"), which is not what an administrator typed.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!NAME.test(name)) return null;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
  } catch {
    return null;
  }
  knownNames ??= new Map(["UTC", ...(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [])].map((n) => [n.toLowerCase(), n]));
  return knownNames.get(name.toLowerCase()) ?? name;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall clock in `timeZone` at `date`: the day of the week (0 = Sunday) and the minute of the day. */
export function zonedClock(date: Date, timeZone: string): { day: number; minute: number } {
  const parts = formatter(timeZone, "clock").formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: WEEKDAYS.indexOf(part("weekday")), minute: Number(part("hour")) * 60 + Number(part("minute")) };
}

/** "GMT+01:00" (or "GMT+00:00") for `timeZone` at `date`: it changes with daylight saving time. */
export function gmtOffset(timeZone: string, date = new Date()): string {
  const name = formatter(timeZone, "offset").formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  return name === "GMT" ? "GMT+00:00" : name;
}

/** "Europe/Paris (GMT+01:00)". */
export const timeZoneLabel = (timeZone: string, date = new Date()) => `${timeZone} (${gmtOffset(timeZone, date)})`;

export const DEFAULT_TIME_ZONE = "UTC";
