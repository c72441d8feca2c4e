/**
 * A module that only some requests need, loaded by the first of them rather than at start (issue
 * 26: each such package costs the start tens of milliseconds). Later calls share the one import;
 * a failed import is not kept, so the next call tries again.
 *
 *   const loadLdapts = loadOnce(() => import("ldapts"));
 *   const { Client } = await loadLdapts();
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
