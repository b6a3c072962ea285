import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PUBLISHED, manifestProblems, publishedManifest } from "../scripts/manifest.js";
import { packSdk } from "../scripts/pack.js";

const packagesDir = resolve(import.meta.dirname, "../..");
const workspace = readdirSync(packagesDir).map((dir) => ({
  dir,
  pkg: JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as Record<string, unknown>,
}));
const sdkManifest = workspace.find((w) => w.pkg.name === "@points/sdk")!.pkg;

// The dependency-confusion guard (docs/deployment.md#publishing-the-sdk).
describe("what the project publishes", () => {
  it("keepsEveryWorkspacePackagePrivate_soAPlainPublishIsRefused", () => {
    assert.deepEqual(
      workspace.filter((w) => w.pkg.private !== true).map((w) => w.pkg.name),
      [],
    );
    assert.deepEqual(PUBLISHED, ["@points/sdk"]);
  });

  it("packsAManifestWithoutPrivateScriptsDevDependenciesOrWorkspaceDependencies", () => {
    const dest = mkdtempSync(join(tmpdir(), "points-pack-"));
    try {
      const tarball = packSdk(dest);
      const pkg = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
      assert.deepEqual(manifestProblems(pkg), []);
      assert.deepEqual(
        Object.keys(pkg).filter((k) => ["private", "scripts", "devDependencies"].includes(k)),
        [],
      );
      assert.deepEqual(pkg.dependencies, { zod: "4.6.7" });
      assert.deepEqual(pkg.peerDependencies, { ethers: "^6", viem: "^2" });
      assert.deepEqual(pkg.peerDependenciesMeta, { viem: { optional: true } });
      assert.deepEqual(pkg.engines, { node: ">=20.19" });
      // A scoped package is private on the registry unless published public.
      assert.deepEqual(pkg.publishConfig, { access: "public" });
      const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
      assert.deepEqual([...new Set(files.map((f) => f.split("/")[1]))].sort(), [
        "CHANGELOG.md",
        "LICENSE",
        "README.md",
        "dist",
        "package.json",
      ]);
      assert.ok(files.includes("package/dist/openapi.json"));
      // The declarations are bundles with the schema's types inlined: nothing imports @points/*.
      const declarations = files.filter((f) => f.endsWith(".d.ts")).sort();
      assert.deepEqual(declarations, [
        "package/dist/abis.d.ts",
        "package/dist/client.d.ts",
        "package/dist/index.d.ts",
        "package/dist/shared.d.ts",
        "package/dist/viem.d.ts",
      ]);
      for (const file of declarations) {
        const types = execFileSync("tar", ["-xzOf", tarball, file], { encoding: "utf8" });
        assert.doesNotMatch(types, /(from|import)\s*['"]@points\//, file);
      }
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  });

  it("dependencyConfusion_refusesAManifestDependingOnAnUnpublishedPointsPackage", () => {
    const base = publishedManifest(sdkManifest);
    assert.deepEqual(manifestProblems({ ...base, dependencies: { "@points/schema": "0.1.0" } }), [
      "dependencies.@points/schema is not published by the project",
    ]);
    assert.deepEqual(manifestProblems({ ...base, peerDependencies: { "@points/contracts": "^0.1.0" } }), [
      "peerDependencies.@points/contracts is not published by the project",
    ]);
  });

  it("refusesWorkspaceLinksPrivateScriptsAndDevDependencies", () => {
    const base = publishedManifest(sdkManifest);
    assert.deepEqual(manifestProblems({ ...base, dependencies: { zod: "workspace:*" } }), [
      'dependencies.zod is "workspace:*"',
    ]);
    assert.deepEqual(manifestProblems(sdkManifest), ['has "private"', 'has "scripts"', 'has "devDependencies"']);
    assert.deepEqual(manifestProblems({ ...base, name: "@points/schema" }), ["@points/schema is not published"]);
  });
});
