// `import "server-only"` marks the modules of lib/server, lib/storage, lib/config and db/index.ts:
// Next resolves it itself (an error in a client bundle, nothing on the server), vitest and the
// esbuild bundle of server.ts alias it to Next's empty copy. Declared here for tsc, which checks
// side-effect imports (next-env.d.ts, which declares it too, exists only after a build).
declare module "server-only";
