/**
 * The published manifest of @points/sdk and the rules it must keep
 * (docs/deployment.md#publishing-the-sdk). The workspace package.json stays private, so a plain
 * `pnpm publish` is refused; only scripts/pack.ts makes a tarball, from this manifest.
 */

/** The only package the project publishes, under the scope it must own first. */
export const PUBLISHED = ["@points/sdk"] as const;

// Fields a consumer's package manager reads; scripts, devDependencies and "private" never ship.
const KEEP = [
  "name",
  "version",
  "description",
  "license",
  "type",
  "engines",
  "sideEffects",
  "main",
  "types",
  "bin",
  "exports",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "publishConfig",
] as const;

export type Manifest = Record<string, unknown>;

/** The workspace package.json cut down to what is published. */
export function publishedManifest(workspace: Manifest): Manifest {
  return Object.fromEntries(KEEP.filter((k) => workspace[k] !== undefined).map((k) => [k, workspace[k]]));
}

/**
 * Why a packed manifest must not be published: `private`, scripts or devDependencies, or a
 * dependency that a registry cannot serve from the project (a workspace or local link, or a
 * `@points/*` package the project does not publish: whoever claims it would be installed).
 */
export function manifestProblems(pkg: Manifest): string[] {
  const problems: string[] = [];
  if (!PUBLISHED.includes(pkg.name as (typeof PUBLISHED)[number])) problems.push(`${pkg.name} is not published`);
  for (const field of ["private", "scripts", "devDependencies"]) {
    if (field in pkg) problems.push(`has "${field}"`);
  }
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [name, range] of Object.entries((pkg[field] ?? {}) as Record<string, string>)) {
      if (/^(workspace|file|link|portal):/.test(range)) problems.push(`${field}.${name} is "${range}"`);
      if (name.startsWith("@points/") && !PUBLISHED.includes(name as (typeof PUBLISHED)[number])) {
        problems.push(`${field}.${name} is not published by the project`);
      }
    }
  }
  return problems;
}
