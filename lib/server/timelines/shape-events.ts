import "server-only";
import { FILE_EVENT } from "../events/record-event";
import type { EventJson } from "./load-events";

/** An event as timelines show it: replies under their annotation, downloads grouped (api.md). */
export type TimelineEvent = EventJson & {
  /** Type 1: the replies to this annotation, as events holding Annotations, oldest first (a thread reads in order). */
  responses?: TimelineEvent[];
  /** Type 9: the type of the grouped events. */
  subtype?: number;
  /** Type 9: the grouped events, newest first. */
  extended?: TimelineEvent[];
};

/** Settled type 9 of api.md: a parent event standing for several downloads. */
export const DOWNLOAD_AGGREGATE = 9;

type AnnotationData = { id?: unknown; conversation?: unknown };

// Type 1 is "annotation added" in both the file and the folder lists.
const annotationOf = (event: EventJson): AnnotationData | null =>
  event.type === FILE_EVENT.annotation && event.data && typeof event.data === "object" ? (event.data as AnnotationData) : null;

/**
 * Moves each reply (an annotation event whose Annotation has a `conversation`) into the
 * `responses` of the event of the annotation it answers, at any depth; returns the items left at
 * the top level, in their order. A reply whose parent is not among the events (older than the
 * timeline's cap) stays at the top level rather than vanish. Items carry their event as `event`
 * so that callers keep what they need beside it (the file timeline: the version).
 */
export function nestReplies<T extends { event: TimelineEvent }>(items: T[]): T[] {
  const byAnnotation = new Map<number, TimelineEvent>();
  for (const { event } of items) {
    const id = annotationOf(event)?.id;
    if (typeof id === "number") byAnnotation.set(id, event);
  }
  const nested = new Set<TimelineEvent>();
  // Oldest first, so that each parent's responses come out in the order they were written.
  for (const { event } of [...items].reverse()) {
    const annotation = annotationOf(event);
    const parentId = annotation?.conversation;
    // A reply always answers an earlier annotation: requiring a smaller id also rules out cycles.
    if (typeof parentId !== "number" || typeof annotation?.id !== "number" || parentId >= annotation.id) continue;
    const parent = byAnnotation.get(parentId);
    if (!parent) continue;
    (parent.responses ??= []).push(event);
    nested.add(event);
  }
  return items.filter(({ event }) => !nested.has(event));
}

/**
 * Groups each run of two or more consecutive downloads (type 3) into one type 9 event: the
 * window is "not separated by another event" of the same list (one version, newest first), with
 * no limit in time. The parent takes the id, date and owner of the newest download; its data
 * lists the distinct users, newest first. A lone download stays a plain type 3 event.
 */
export function aggregateDownloads(events: TimelineEvent[]): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  let run: TimelineEvent[] = [];
  const flush = () => {
    if (run.length === 1) out.push(run[0]);
    else if (run.length > 1) out.push(downloadAggregate(run));
    run = [];
  };
  for (const event of events) {
    if (event.type === FILE_EVENT.download) {
      run.push(event);
      continue;
    }
    flush();
    out.push(event);
  }
  flush();
  return out;
}

function downloadAggregate(downloads: TimelineEvent[]): TimelineEvent {
  const users = new Map<string, { id: string; name: string }>();
  for (const d of downloads) if (!users.has(d.owner_id)) users.set(d.owner_id, { id: d.owner_id, name: d.owner });
  const [newest] = downloads;
  return {
    id: newest.id,
    type: DOWNLOAD_AGGREGATE,
    subtype: FILE_EVENT.download,
    date: newest.date,
    geo: null,
    env: null,
    owner: newest.owner,
    owner_id: newest.owner_id,
    data: { users: [...users.values()], users_count: users.size },
    extended: downloads,
  };
}
