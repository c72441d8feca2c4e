import { describe, expect, it } from "vitest";
import { combineGroupOptions, connectionRefusal, DEFAULT_OPTIONS, parseIpEntry } from "@/lib/server/options/connection-rules";

const at = (iso: string, ip = "10.0.0.1", timeZone = "UTC") => ({ ip, now: new Date(iso), kind: "api", timeZone });
const hours = (hourStart: string | null, hourEnd: string | null) => ({ ...DEFAULT_OPTIONS, hourStart, hourEnd });

describe("connection rules", () => {
  it("reads hour_start as the first allowed minute and hour_end as the first refused one, in GMT", () => {
    const office = hours("08:00", "18:00");
    expect(connectionRefusal(office, at("2026-01-05T07:59:00Z"))).toBe("hour_not_allowed");
    expect(connectionRefusal(office, at("2026-01-05T08:00:00Z"))).toBeNull();
    expect(connectionRefusal(office, at("2026-01-05T17:59:59Z"))).toBeNull();
    expect(connectionRefusal(office, at("2026-01-05T18:00:00Z"))).toBe("hour_not_allowed");
    const night = hours("22:00", "06:00");
    expect(connectionRefusal(night, at("2026-01-05T23:30:00Z"))).toBeNull();
    expect(connectionRefusal(night, at("2026-01-05T05:59:00Z"))).toBeNull();
    expect(connectionRefusal(night, at("2026-01-05T12:00:00Z"))).toBe("hour_not_allowed");
    expect(connectionRefusal(hours(null, "12:00"), at("2026-01-05T00:00:00Z"))).toBeNull();
    expect(connectionRefusal(hours("12:00", null), at("2026-01-05T23:59:00Z"))).toBeNull();
  });

  it("reads days and hours on the platform zone's wall clock, daylight saving time included", () => {
    const office = hours("08:00", "18:00");
    const paris = (iso: string) => at(iso, "10.0.0.1", "Europe/Paris");
    // Winter: Paris is GMT+01:00, so 08:00 there is 07:00 GMT.
    expect(connectionRefusal(office, paris("2026-01-05T06:59:00Z"))).toBe("hour_not_allowed");
    expect(connectionRefusal(office, paris("2026-01-05T07:00:00Z"))).toBeNull();
    expect(connectionRefusal(office, paris("2026-01-05T16:59:00Z"))).toBeNull();
    expect(connectionRefusal(office, paris("2026-01-05T17:00:00Z"))).toBe("hour_not_allowed");
    // Summer: GMT+02:00, so 08:00 there is 06:00 GMT.
    expect(connectionRefusal(office, paris("2026-07-06T05:59:00Z"))).toBe("hour_not_allowed");
    expect(connectionRefusal(office, paris("2026-07-06T06:00:00Z"))).toBeNull();
    expect(connectionRefusal(office, paris("2026-07-06T15:59:00Z"))).toBeNull();
    expect(connectionRefusal(office, paris("2026-07-06T16:00:00Z"))).toBe("hour_not_allowed");
    // The DST change itself (29 March 2026, 01:00 GMT): 01:30 GMT is 03:30 in Paris.
    expect(connectionRefusal(hours("03:00", "04:00"), paris("2026-03-29T01:30:00Z"))).toBeNull();
    expect(connectionRefusal(hours("03:00", "04:00"), at("2026-03-29T01:30:00Z"))).toBe("hour_not_allowed");
    // The day is the zone's too: Sunday 23:30 GMT is already Monday in Tokyo.
    const mondayOnly = { ...DEFAULT_OPTIONS, days: 2 };
    expect(connectionRefusal(mondayOnly, at("2026-01-04T23:30:00Z", "10.0.0.1", "Asia/Tokyo"))).toBeNull();
    expect(connectionRefusal(mondayOnly, at("2026-01-04T23:30:00Z"))).toBe("day_not_allowed");
  });

  it("allows Sunday through either of its two bits", () => {
    const sunday = "2026-01-04T12:00:00Z";
    expect(connectionRefusal({ ...DEFAULT_OPTIONS, days: 1 }, at(sunday))).toBeNull();
    expect(connectionRefusal({ ...DEFAULT_OPTIONS, days: 128 }, at(sunday))).toBeNull();
    expect(connectionRefusal({ ...DEFAULT_OPTIONS, days: 126 }, at(sunday))).toBe("day_not_allowed");
    expect(connectionRefusal({ ...DEFAULT_OPTIONS, days: 128 }, at("2026-01-05T12:00:00Z"))).toBe("day_not_allowed");
  });

  it("widens group windows to one window covering them all, or no limit when they cover the day", () => {
    const combined = combineGroupOptions([hours("08:00", "12:00"), hours("11:00", "14:00")]);
    expect(combined).toMatchObject({ hourStart: "08:00", hourEnd: "14:00" });
    expect(combineGroupOptions([hours("00:00", "12:00"), hours("12:00", null)])).toMatchObject({ hourStart: null, hourEnd: null });
    expect(combineGroupOptions([hours("08:00", "12:00"), hours(null, null)])).toMatchObject({ hourStart: null, hourEnd: null });
    expect(combineGroupOptions([hours("20:00", "02:00"), hours("01:00", "03:00")])).toMatchObject({ hourStart: "20:00", hourEnd: "03:00" });
  });

  it("parses addresses and ranges of both families, and nothing else", () => {
    expect(parseIpEntry("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8, type: "ipv4" });
    expect(parseIpEntry("::1")).toEqual({ address: "::1", prefix: 128, type: "ipv6" });
    for (const bad of ["10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1", "fe80::/200", "example.org", "", "10.0.0.0/8/8"]) expect(parseIpEntry(bad)).toBeNull();
  });
});
