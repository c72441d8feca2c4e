import { z } from "zod";

/** A public link key in a path (shares and drop links); anything longer is not one of ours. */
export const linkKey = z.string().min(1).max(200);

/** POST .../passcheck: the link's password, or the code received by SMS (or both). */
export const passcheckBody = z.object({
  password: z.string().min(1).max(1000).optional(),
  code: z.string().trim().regex(/^\d{6}$/, "Expected the 6-digit code").optional(),
});

export const accessTokenResponse = z.object({ access_token: z.string() });

/**
 * A new link password: any text the owner chooses (it is hashed), not the account policy, but 8
 * characters at least, since anyone holding the link may guess it (issue 25, finding 6). Links
 * made before keep their shorter passwords: passcheck takes any length.
 */
export const LINK_PASSWORD_MIN = 8;
export const linkPassword = z.string().min(LINK_PASSWORD_MIN, `A link password needs at least ${LINK_PASSWORD_MIN} characters`).max(200);
/** A phone number for SMS codes, in international form where possible. */
export const linkPhone = z.string().trim().regex(/^\+?[0-9 ().-]{6,24}$/, "Expected a phone number");

/** A short-lived token for a preview, an edit or a download (the contract's Tokens). */
export const tokenResponse = z.object({ token: z.string() });
