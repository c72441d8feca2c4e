import { describe, expect, it } from "vitest";
import { loginKey, normalizeLogin } from "@/lib/server/auth/login-name";

// The form a login is throttled and looked up under (issue 25, finding 15): what an LDAP
// directory's string preparation (RFC 4518) would compare as the same login is one login here.

describe("normalizeLogin", () => {
  it("trims and collapses spaces of every kind", () => {
    for (const typed of [" alice", "alice ", "\talice\n", "\u00a0alice\u3000", "\u2003alice\u2028"]) expect(normalizeLogin(typed)).toBe("alice");
    expect(normalizeLogin("jean  \u00a0 dupont")).toBe("jean dupont");
  });

  it("drops the characters a directory maps to nothing", () => {
    for (const typed of ["ali\u200bce", "al\u00adice", "alic\u200de", "\ufeffalice", "ali\u034fce", "al\u0000ice", "alice\ufe0f"]) expect(normalizeLogin(typed)).toBe("alice");
  });

  it("takes the NFKC form: full-width letters, ligatures and composed accents", () => {
    expect(normalizeLogin("ａｌｉｃｅ")).toBe("alice");
    expect(normalizeLogin("ﬁona")).toBe("fiona");
    expect(normalizeLogin("he\u0301le\u0300ne")).toBe("hélène");
  });

  it("keeps the case; the throttle key is in lower case", () => {
    expect(normalizeLogin(" Alice ")).toBe("Alice");
    expect(loginKey(" ALICE\u200b")).toBe("alice");
    expect(loginKey("Ａｌｉｃｅ")).toBe(loginKey("alice"));
  });
});
