import { describe, expect, it } from "vitest";
import { changesOfDraft, draftOfShare, EMPTY_LINK_DRAFT } from "@/components/sharing/link-options";
import type { ShareResponse } from "@/lib/queries/sharing";

const EMPTY_GATE = { ask_email: 0, verify_email: 0, allow: [], deny: [], agreement: null, watermark: 0, notify_view: 0 } as const;
const share = (over: Partial<ShareResponse> = {}): ShareResponse =>
  ({ id: 1, key: "k", url: "u", roots: [], flags: 4, expiration_date: null, creation_date: "", name: null, owner: "o", owner_id: 1, password_protected: false, phone: null, is_valid: true, consumed_date: null, gate: EMPTY_GATE, ...over }) as ShareResponse;
const changes = (result: ReturnType<typeof changesOfDraft>) => {
  if ("problem" in result) throw new Error(result.problem.key);
  return result.changes;
};

describe("a link's form as PUT /share/(id) and POST /share bodies", () => {
  it("a new link sends its mode, options and day of expiry to its end", () => {
    const body = changes(changesOfDraft({ ...EMPTY_LINK_DRAFT, mode: 1, single: true, receipt: true, usePassword: true, password: "long-enough", expiration: "2031-05-04", name: "  Board  " }));
    expect(body).toMatchObject({ flags: 1 | 16 | 64 | 128, password: "long-enough", name: "Board" });
    const end = new Date(body.expiration_date!);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([2031, 4, 4, 23, 59]);
  });

  it("view only drops single download and receipt; a short password or a bad gate entry is a problem", () => {
    expect(changes(changesOfDraft({ ...EMPTY_LINK_DRAFT, mode: 2, single: true, receipt: true })).flags).toBe(2);
    expect(changesOfDraft({ ...EMPTY_LINK_DRAFT, usePassword: true, password: "short" })).toEqual({ problem: { key: "sharing.passwordShort", min: 8 } });
    expect(changesOfDraft({ ...EMPTY_LINK_DRAFT, gate: { ...EMPTY_LINK_DRAFT.gate, deny: "not an address" } })).toEqual({ problem: { key: "sharing.gate.badEntry", entry: "not an address" } });
  });

  it("an edit keeps the password and SMS code unless changed, removes the password when unticked, and sends the expiry only when its day changed", () => {
    const current = share({ flags: 4 | 16 | 32, password_protected: true, phone: "+33600000000", expiration_date: new Date(2031, 4, 4, 12).toISOString() });
    const draft = draftOfShare(current);
    expect(draft).toMatchObject({ usePassword: true, password: "", expiration: "2031-05-04", mode: 4 });
    const kept = changes(changesOfDraft(draft, current));
    expect(kept.flags).toBe(4 | 16 | 32);
    expect(kept).not.toHaveProperty("password");
    expect(kept).not.toHaveProperty("expiration_date");

    const removed = changes(changesOfDraft({ ...draft, usePassword: false, expiration: "" }, current));
    expect(removed.password).toBeNull();
    expect(removed.flags).toBe(4 | 32);
    expect(removed.expiration_date).toBeNull();

    const renewed = changes(changesOfDraft({ ...draft, password: "a-new-password" }, current));
    expect(renewed.password).toBe("a-new-password");
    // A link without a password needs one typed before it gets the flag.
    expect("problem" in changesOfDraft({ ...draftOfShare(share()), usePassword: true }, share())).toBe(true);
  });
});
