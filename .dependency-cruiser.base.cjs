/**
 * The import rule every TypeScript package's `pnpm lint` enforces on its sources: no cycles.
 * Type-only imports count too (a type that points back is a design cycle all the same).
 * Packages run it as is (`depcruise src --config ../../.dependency-cruiser.base.cjs`) or
 * extend it with their own rules (packages/api/.dependency-cruiser.cjs adds its layers).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: break it with an event, a port (interface), or by moving the shared part down.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Only the package's own sources: workspace packages resolve to their built dist/ folders.
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
