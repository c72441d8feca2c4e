/**
 * A login as a person typed it, reduced to the form a directory compares: LDAP's string
 * preparation (RFC 4518) maps invisible characters to nothing and other spaces to a space,
 * normalises to NFKC and ignores leading, trailing and repeated spaces, so " alice", "alice\u00a0"
 * and "ali\u200bce" all name alice's entry. The throttle must count them as one login (issue 25,
 * finding 15), and the lookup must ask for that one login.
 */

// RFC 4518, 2.2: characters mapped to nothing (soft hyphens, joiners, variation selectors, the
// object replacement character, zero-width space) and every format (Cf) character.
const MAPPED_TO_NOTHING = /[\u00ad\u1806\u034f\u180b-\u180d\ufe00-\ufe0f\ufffc\u200b]|\p{Cf}/gu;
// Line breaks and tabulations become a space; every other control character disappears.
const CONTROL_AS_SPACE = /[\t\n\v\f\r\u0085]/g;
const OTHER_CONTROL = /\p{Cc}/gu;
const SEPARATOR = /\p{Z}+/gu;

export function normalizeLogin(typed: string): string {
  return typed
    .replace(CONTROL_AS_SPACE, " ")
    .replace(OTHER_CONTROL, "")
    .replace(MAPPED_TO_NOTHING, "")
    .normalize("NFKC")
    .replace(SEPARATOR, " ")
    .trim();
}

/**
 * The key a login is counted under by the sign-in throttles: its normalised form in lower case
 * (logins compare case-insensitively here and in directories' usual login attributes).
 */
export const loginKey = (typed: string): string => normalizeLogin(typed).toLowerCase();
