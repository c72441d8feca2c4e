import "server-only";
import type { Entry } from "ldapts";
import { type DirectoryConnection, escapeFilterValue, loadLdapts } from "./ldap-client";
import { type DirectoryGroup, groupAttributes, normalizeDn, text, toGroup, values } from "./ldap-entries";
import type { LdapSettings } from "./ldap-settings";

// Nesting deeper than this is a loop or a mistake; either way the walk stops.
const MAX_DEPTH = 16;
const CHUNK = 50;

const asText = (v: string | Buffer) => (typeof v === "string" ? v : v.toString("utf8")).trim();
const or = (attribute: string, list: string[]) => `(|${list.map((v) => `(${attribute}=${escapeFilterValue(v)})`).join("")})`;

/**
 * The groups of one person, asked of the directory at sign-in (ugmap: gtu when set, else utg),
 * with the groups of those groups when `recursive` is on.
 */
export async function findPersonGroups(conn: DirectoryConnection, s: LdapSettings, person: Entry): Promise<DirectoryGroup[]> {
  const found = new Map<string, Entry>();
  const attributes = groupAttributes(s);
  const add = (entries: Entry[]) => {
    const fresh: Entry[] = [];
    for (const e of entries) {
      const key = normalizeDn(e.dn);
      if (found.has(key)) continue;
      found.set(key, e);
      fresh.push(e);
    }
    return fresh;
  };
  const searchChunks = async (attribute: string, list: string[]) => {
    const out: Entry[] = [];
    for (let i = 0; i < list.length; i += CHUNK) {
      out.push(...(await conn.search(s.baseDN, { filter: `(&${s.groupFilter}${or(attribute, list.slice(i, i + CHUNK))})`, attributes, paged: true })));
    }
    return out;
  };

  if (s.gtuIn) {
    const key = s.gtuOut === "dn" ? person.dn : text(person, s.gtuOut);
    if (!key) return [];
    let frontier = add(await searchChunks(s.gtuIn, [key]));
    // A nested group is listed by its DN in its parent's member attribute.
    for (let depth = 0; s.recursive && frontier.length && depth < MAX_DEPTH; depth++) {
      frontier = add(await searchChunks(s.gtuIn, frontier.map((e) => e.dn)));
    }
  } else if (s.utgIn) {
    const resolve = async (refs: string[]) => {
      if (s.utgOut !== "dn") return searchChunks(s.utgOut, refs);
      const out: Entry[] = [];
      for (const dn of refs) {
        try {
          out.push(...(await conn.search(dn, { scope: "base", filter: s.groupFilter, attributes })));
        } catch (error) {
          if (!(error instanceof (await loadLdapts()).NoSuchObjectError)) throw error;
        }
      }
      return out;
    };
    let frontier = add(await resolve(values(person, s.utgIn).map(asText)));
    for (let depth = 0; s.recursive && frontier.length && depth < MAX_DEPTH; depth++) {
      const refs = frontier.flatMap((g) => values(g, s.utgIn).map(asText)).filter((ref) => !found.has(normalizeDn(ref)));
      frontier = add(await resolve(refs));
    }
  }
  return [...found.values()].flatMap((e) => toGroup(s, e) ?? []);
}

/**
 * Every person's groups from full listings (the synchronisation): the same rules as
 * findPersonGroups, computed in memory. Keys are normalized person DNs; values group DNs.
 */
export function membershipsInMemory(s: LdapSettings, people: Entry[], groupEntries: Entry[]): Map<string, Set<string>> {
  const groupsByDn = new Map(groupEntries.map((g) => [normalizeDn(g.dn), g]));
  const parentsOf = new Map<string, Set<string>>();
  const direct = new Map<string, Set<string>>();
  const link = (map: Map<string, Set<string>>, key: string, value: string) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(value);
  };
  let personKey: (p: Entry) => string[];

  if (s.gtuIn) {
    for (const g of groupEntries) {
      const groupDn = normalizeDn(g.dn);
      for (const raw of values(g, s.gtuIn).map(asText)) {
        const asDn = normalizeDn(raw);
        if (groupsByDn.has(asDn)) link(parentsOf, asDn, groupDn);
        else link(direct, s.gtuOut === "dn" ? asDn : raw.toLowerCase(), groupDn);
      }
    }
    personKey = (p) => [s.gtuOut === "dn" ? normalizeDn(p.dn) : text(p, s.gtuOut).toLowerCase()];
  } else if (s.utgIn) {
    const groupKey = (g: Entry) => (s.utgOut === "dn" ? normalizeDn(g.dn) : text(g, s.utgOut).toLowerCase());
    const byKey = new Map(groupEntries.map((g) => [groupKey(g), normalizeDn(g.dn)]));
    const refKey = (raw: string) => (s.utgOut === "dn" ? normalizeDn(raw) : raw.toLowerCase());
    for (const g of groupEntries) {
      for (const raw of values(g, s.utgIn).map(asText)) {
        const parent = byKey.get(refKey(raw));
        if (parent) link(parentsOf, normalizeDn(g.dn), parent);
      }
    }
    for (const p of people) {
      for (const raw of values(p, s.utgIn).map(asText)) {
        const group = byKey.get(refKey(raw));
        if (group) link(direct, `person:${normalizeDn(p.dn)}`, group);
      }
    }
    personKey = (p) => [`person:${normalizeDn(p.dn)}`];
  } else {
    return new Map();
  }

  const result = new Map<string, Set<string>>();
  for (const p of people) {
    const all = new Set<string>();
    const queue = personKey(p).flatMap((k) => [...(direct.get(k) ?? [])]);
    while (queue.length) {
      const g = queue.pop()!;
      if (all.has(g)) continue;
      all.add(g);
      if (s.recursive) queue.push(...(parentsOf.get(g) ?? []));
    }
    result.set(normalizeDn(p.dn), all);
  }
  return result;
}
