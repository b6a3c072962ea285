/**
 * The import rules `pnpm lint` enforces on src/ (docs/architecture.md#three-layers):
 * no cycles (the root .dependency-cruiser.base.cjs, with the shared options); core imports
 * neither server nor workers; workers do not import server; only the composition root
 * (cli/, service.ts, index.ts) imports server. Type-only imports count too:
 * a type that points up the stack is a design cycle all the same.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  extends: "../../.dependency-cruiser.base.cjs",
  forbidden: [
    {
      name: "no-circular-folders",
      severity: "error",
      scope: "folder",
      comment: "Folders import each other in a cycle (a back edge up the stack): same remedies as no-circular.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-is-the-bottom",
      severity: "error",
      comment: "core/ holds the domain and its ports: it imports neither server/ nor workers/.",
      from: { path: "^src/core/" },
      to: { path: "^src/(server|workers)/" },
    },
    {
      name: "workers-do-not-serve",
      severity: "error",
      comment: "workers/ run background jobs over core/: they never import server/.",
      from: { path: "^src/workers/" },
      to: { path: "^src/server/" },
    },
    {
      name: "only-the-root-imports-server",
      severity: "error",
      comment: "Only the composition root (cli/, service.ts, index.ts) wires server/ in.",
      from: { path: "^src/", pathNot: "^src/(server/|cli/|service\\.ts$|index\\.ts$)" },
      to: { path: "^src/server/" },
    },
    {
      name: "only-the-root-imports-workers",
      severity: "error",
      comment: "Only the composition root starts workers; core and server reach them through core's ports.",
      from: { path: "^src/", pathNot: "^src/(workers/|cli/|service\\.ts$|index\\.ts$)" },
      to: { path: "^src/workers/" },
    },
  ],
};
