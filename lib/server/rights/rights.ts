import "server-only";
export const RIGHT_NAMES = ["browse", "read", "download", "write", "edit", "delete", "share"] as const;
export type RightName = (typeof RIGHT_NAMES)[number];
export type Rights = Record<RightName, boolean>;

export const ALL_RIGHTS: Rights = { browse: true, read: true, download: true, write: true, edit: true, delete: true, share: true };
export const NO_RIGHTS: Rights = { browse: false, read: false, download: false, write: false, edit: false, delete: false, share: false };

/** The seven flags of anything that carries them (a rights row, a query result). */
export const pickRights = (r: Rights): Rights => ({
  browse: r.browse,
  read: r.read,
  download: r.download,
  write: r.write,
  edit: r.edit,
  delete: r.delete,
  share: r.share,
});

/** browse=false removes every access (contract); any other right implies browsing. */
export function normaliseRights(r: Rights): Rights {
  return r.browse ? r : NO_RIGHTS;
}

/** The contract's can_* fields of a folder. */
export const folderCans = (r: Rights) => ({
  can_read: r.read,
  can_download: r.download,
  can_write: r.write,
  can_edit: r.edit,
  can_delete: r.delete,
  can_share: r.share,
});

/** The contract's can_* fields of a file (no can_read there). */
export const fileCans = (r: Rights) => ({
  can_download: r.download,
  can_write: r.write,
  can_edit: r.edit,
  can_delete: r.delete,
  can_share: r.share,
});

/** Invitation masks: 1 read, 2 download, 4 write, 8 edit, 16 delete, 32 share. */
export function rightsFromMask(mask: number): Rights {
  return normaliseRights({
    browse: mask > 0,
    read: (mask & 1) !== 0,
    download: (mask & 2) !== 0,
    write: (mask & 4) !== 0,
    edit: (mask & 8) !== 0,
    delete: (mask & 16) !== 0,
    share: (mask & 32) !== 0,
  });
}
