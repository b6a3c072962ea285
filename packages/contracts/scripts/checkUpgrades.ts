/**
 * `pnpm check:upgrades`: OpenZeppelin's own validator (`openzeppelin-upgrades-core validate`) over
 * the contracts' build, the standard CI step of OpenZeppelin's upgrades tooling (README.md#commands).
 * It needs one compilation: after an incremental build artifacts/build-info holds several, each
 * with its own copy of some contracts, and the validator stops on "multiple contracts named …".
 * That case is named here with its fix instead.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const buildInfo = path.join(root, "artifacts", "build-info");
const compilations = readdirSync(buildInfo).filter((f) => f.endsWith(".json") && !f.endsWith(".output.json"));
if (compilations.length !== 1) {
  console.error(
    compilations.length === 0
      ? "check:upgrades: no build in artifacts/build-info: run pnpm build first"
      : `check:upgrades: artifacts/build-info holds ${compilations.length} compilations (an incremental build); OpenZeppelin's validator needs one: run pnpm hardhat clean && pnpm build, then pnpm check:upgrades`,
  );
  process.exit(1);
}
const require = createRequire(import.meta.url);
const cli = path.join(
  path.dirname(require.resolve("@openzeppelin/upgrades-core/package.json")),
  "dist",
  "cli",
  "cli.js",
);
// The one contract left out is the deliberately unsafe upgrade the tests and the deployer must refuse.
const args = [cli, "validate", buildInfo, "--exclude", "contracts/mocks/upgrades/PointsV2UnsafeMock.sol"];
const { status } = spawnSync(process.execPath, args, { stdio: "inherit" });
process.exit(status ?? 1);
