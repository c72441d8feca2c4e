import "server-only";
/** The two kinds of public links that share protection (password, SMS code, access tokens). */
export type LinkType = "share" | "ulink";

/** How long a passcheck's access token lasts (contract: 2 hours for link shares, 4 for drop links). */
export const ACCESS_TOKEN_TTL_MS: Record<LinkType, number> = { share: 2 * 3600_000, ulink: 4 * 3600_000 };

/** A link as its protection sees it. */
export type ProtectedLink = {
  linkType: LinkType;
  linkId: number;
  /** Argon2id hash when the link is password protected. */
  passwordHash: string | null;
  needsPassword: boolean;
  /** The link asks for a code sent by SMS to its phone. */
  needsCode: boolean;
};

export const isProtected = (link: Pick<ProtectedLink, "needsPassword" | "needsCode">): boolean => link.needsPassword || link.needsCode;
