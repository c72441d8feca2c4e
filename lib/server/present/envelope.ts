import "server-only";
/** The contract's list envelope; both spellings of the count are written (api.md). */
export function envelope<T>(objects: T[], offsetStart: number, total: number) {
  return {
    offset_start: offsetStart,
    nb_objets: objects.length,
    nb_objects: objects.length,
    nb_total_objects: total,
    objects,
  };
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
