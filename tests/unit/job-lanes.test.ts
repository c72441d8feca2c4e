import { describe, expect, it } from "vitest";
import { lanesFromEnv } from "@/lib/server/jobs/lanes";

const concurrencies = (value: string) => Object.fromEntries(lanesFromEnv(value).lanes.map((lane) => [lane.name, lane.concurrency]));

describe("JOBS_CONCURRENCY", () => {
  it("defaults to two mails, one preview, one text extraction and one of the rest at a time", () => {
    expect(concurrencies("")).toEqual({ mail: 2, previews: 1, texts: 1, ocr: 1, meta: 1, other: 1 });
    expect(lanesFromEnv("").problems).toEqual([]);
  });

  it("sets a lane's concurrency; 0 leaves its jobs to other processes", () => {
    expect(concurrencies("mail=4, previews=0")).toEqual({ mail: 4, previews: 0, texts: 1, ocr: 1, meta: 1, other: 1 });
  });

  it("reports malformed entries and keeps their lane's default", () => {
    const { lanes, problems } = lanesFromEnv("mail=x,thumbs=2,texts=99,other=3");
    expect(Object.fromEntries(lanes.map((lane) => [lane.name, lane.concurrency]))).toEqual({ mail: 2, previews: 1, texts: 1, ocr: 1, meta: 1, other: 3 });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"mail=x"');
  });
});
