/** What the sign-in form learns when authorize fails, carried in next-auth's `?error=` parameter. */
export type SignInFailure =
  | "wrong_credentials"
  | "account_inactive"
  | "account_expired"
  | "too_many_requests"
  | "connection_not_allowed"
  | "internal_error"
  /** `mfa_required:<mfa_token>:<methods, comma separated>`: the password was right, a second step follows. */
  | "mfa_required"
  /** The second step's code or key was refused. */
  | "wrong_code"
  /** The second step came too late (5 minutes) or after too many wrong answers. */
  | "mfa_expired"
  /** The account's directory (LDAP, Active Directory) cannot be reached: not a wrong password. */
  | "directory_unavailable";
