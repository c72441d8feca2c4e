import "server-only";

/**
 * A request body example per operation, shown by /docs/api and sent by
 * tests/api/openapi/body-examples.test.ts (ids there become those of objects the test creates):
 * each must be a body the server accepts. Ids read as in the contract: 4 a folder, 12 a file, 42 a user.
 */
export const BODY_EXAMPLES: Record<string, unknown> = {
  "POST /api/auth": { user: "jdupont", password: "S3cure-passphrase" },
  "PUT /api/account": { firstname: "Jeanne", lastname: "Dupont", language: "fr" },
  "POST /api/folder": { name: "Reports 2026", parent_id: 4 },
  "PUT /api/folder/{folderId}": { name: "Reports 2026 (final)" },
  "POST /api/file": { name: "notes.txt", parent_id: 4 },
  "PUT /api/file/{fileId}": { name: "notes-final.txt" },
  "POST /api/file/tus": { name: "video.mp4", target: 4, size: 1048576 },
  "POST /api/annotation": { target_id: 12, target_type: "file", text: "Checked, thanks." },
  "POST /api/right": { folder_id: 4, target_id: "42", browse: true, read: true, download: true },
  "POST /api/alert": { folder_id: 4, target_id: "42" },
  "POST /api/user": { login: "jdupont", password: "S3cure-passphrase", email: "jeanne.dupont@example.com", firstname: "Jeanne", lastname: "Dupont" },
  "POST /api/group": { login: "sales", members: [42] },
  "POST /api/invite": { target: "guest@example.com", folder: 4, rights: 7 },
  "POST /api/share": { roots: [{ id: 12, entity_type: 1 }], name: "Quarterly report", expiration_date: "2027-01-31T00:00:00Z" },
  "POST /api/ulink": { folder_id: 4, name: "Send us your invoices" },
  "POST /api/tag": { name: "urgent" },
};
