import "server-only";

/**
 * One tag per resource, in the order of the contract's endpoints (rest-interface: Account,
 * Folders, Files, Trash, Annotations, Locks, Rights, Alerts, Users, Invitations, Groups, Tokens,
 * then the resources whose paths it does not show). The first pattern that matches a path names its tag.
 */
const TAGS: { name: string; description: string; paths: RegExp }[] = [
  { name: "Account", description: "Sign in and out (`POST`/`DELETE /api/auth`), the signed-in user's account and picture, password reset.", paths: /^\/api\/(auth|reset_password)(\/|$)|^\/api\/account(\/(picture|storage))?$/ },
  { name: "Account security", description: "Second factors (TOTP, SMS, security keys, recovery codes), sessions, app passwords, linked identities and OAuth2 grants of the signed-in user.", paths: /^\/api\/account\/|^\/api\/oauth2\/user\// },
  { name: "Folders", description: "Folders: read (with depth, search mode), create, copy, rename, move, quotas, delete to the trash, timeline.", paths: /^\/api\/folders?(\/|$)/ },
  { name: "Files", description: "Files and their versions: read, create, copy, rename, move, delete; uploads (multipart, chunked, octet-stream replacement, tus); downloads with ranges; zips; activity and timeline.", paths: /^\/api\/(file|tus|zip|mixer)(\/|$)/ },
  { name: "Trash", description: "Trash items: read, list (per user for administrators), restore, delete, empty.", paths: /^\/api\/(trash|trashes)(\/|$)/ },
  { name: "Annotations", description: "Comments on files and folders, with conversations, unread counts and recent activity.", paths: /^\/api\/annotations?(\/|$)/ },
  { name: "Locks", description: "File locks: read, list below a folder, lock, unlock.", paths: /^\/api\/locks?(\/|$)/ },
  { name: "Rights", description: "Access rights of users and groups on folders (browse, read, download, write, edit, delete, share), optionally recursive.", paths: /^\/api\/rights?(\/|$)/ },
  { name: "Alerts", description: "Email alerts on changes in a folder.", paths: /^\/api\/alerts?(\/|$)/ },
  { name: "Users", description: "User accounts (administrators and managers): read, list, create, update, delete, quota, picture, second factors, identities.", paths: /^\/api\/users?(\/|$)/ },
  { name: "Invitations", description: "Invitations to folders by email, the invitable users, and completing an invitation by its key.", paths: /^\/api\/invit(e|es)(\/|$)/ },
  { name: "Groups", description: "Groups of users, with their members.", paths: /^\/api\/groups?(\/|$)/ },
  { name: "Tokens", description: "Short-lived tokens for downloads, previews and editing, for files, link shares and templates.", paths: /^\/api\/token\// },
  { name: "Spaces", description: "Top-level spaces (private, company, shared) and portal folders.", paths: /^\/api\/roots?(\/|$)/ },
  { name: "Connection options", description: "What a user or group may connect with (web, mobile, applications).", paths: /^\/api\/option(\/|$)/ },
  { name: "Delegates", description: "Group delegates (obsolete: replaced by the manager role).", paths: /^\/api\/delegates?(\/|$)/ },
  { name: "Emails", description: "The mail outbox: every mail the platform sends, readable, resendable, with previews of templates.", paths: /^\/api\/emails?(\/|$)/ },
  { name: "Email shares", description: "Files and folders shared with people by email.", paths: /^\/api\/share\/email(\/|$)|^\/api\/shares\/emails$/ },
  { name: "Link shares", description: "Link shares: create and manage them, what a visitor sees and downloads (with `access_token` when protected), visits and analytics.", paths: /^\/api\/(shares?|sharelinks?)(\/|$)/ },
  { name: "Drop links", description: "Drop links (upload links), by id and by key, with deposits and per-recipient links by email.", paths: /^\/api\/ulinks?(\/|$)/ },
  { name: "Templates", description: "File templates per folder, and new files made from them.", paths: /^\/api\/template(\/|$)/ },
  { name: "Workflows", description: "Validation workflow instances, their documents and their validators' transitions.", paths: /^\/api\/workflow(\/|$)/ },
  { name: "Logs", description: "The audit log.", paths: /^\/api\/logs?(\/|$)/ },
  { name: "Signatures", description: "Signature requests: documents, fields, actors, activation, reminders, activities and exports; the signing page's operations by token; the sealing certificate (administrators).", paths: /^\/api\/(signatures|sign)(\/|$)/ },
  { name: "Signature templates", description: "Documents with their fields and roles, saved from a request and reused for new ones.", paths: /^\/api\/signature-templates?(\/|$)/ },
  { name: "Configuration", description: "Platform configuration, public configuration, logo, SMTP settings and test.", paths: /^\/api\/(config|publicconfig)(\/|$)/ },
  { name: "Previews", description: "Preview pages and thumbnails (pending, preparing, available, failed).", paths: /^\/api\/preview(\/|$)/ },
  { name: "Archives", description: "Archived files and folders: archive, unarchive, edit, delete.", paths: /^\/api\/archives?(\/|$)/ },
  { name: "Statistics", description: "Storage statistics, trash and visit figures (a bitmask of sections).", paths: /^\/api\/stats(\/|$)/ },
  { name: "Object by path", description: "A file or folder found by its path.", paths: /^\/api\/objectpath(\/|$)/ },
  { name: "Quotas", description: "Platform, user and folder quotas with their use.", paths: /^\/api\/quotas(\/|$)/ },
  { name: "Identity providers", description: "LDAP, Active Directory, OIDC and SAML providers: configuration, test, directory synchronisation.", paths: /^\/api\/identity(\/|$)/ },
  { name: "Single sign-on", description: "Sign-in through OIDC and SAML providers (redirects).", paths: /^\/api\/sso(\/|$)/ },
  { name: "OAuth2 applications", description: "OAuth2 applications: create, update, regenerate the secret, revoke tokens.", paths: /^\/api\/oauth2\/(app|apps)(\/|$)/ },
  { name: "Tags", description: "Tags and tag categories on files and folders, and tag activity.", paths: /^\/api\/tags?(\/|$)/ },
  { name: "Jobs", description: "Background jobs (administrators): list, read, retry.", paths: /^\/api\/admin\/jobs?(\/|$)/ },
  { name: "SMS", description: "The SMS outbox (administrators).", paths: /^\/api\/admin\/sms(\/|$)/ },
  { name: "Stars", description: "The signed-in user's starred files and folders.", paths: /^\/api\/stars?(\/|$)/ },
  { name: "Notifications", description: "What happened for the signed-in user (shares, comments, alerts, signature and validation requests, deposits), read and unread.", paths: /^\/api\/notifications?(\/|$)/ },
];

export const TAG_LIST = TAGS.map(({ name, description }) => ({ name, description }));

/** A path no entry names keeps its first segment as its tag: tests/api/openapi/openapi.test.ts fails until it is added here. */
export function tagOf(path: string): string {
  return TAGS.find((t) => t.paths.test(path))?.name ?? path.split("/")[2] ?? "api";
}
