import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, PKG, cli, run } from "./helpers/cli.js";

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const ENV = {
  EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
  CHAINS: JSON.stringify([{ chainId: 8453, name: "Base", rpcUrl: "http://127.0.0.1:9", testnet: false }]),
};

describe("points-api assets: the operator's collateral and feed list, from the CLI", () => {
  let dir: string;
  const assets = (...args: string[]) => cli(join(dir, "db"), ["assets", ...args], ENV);

  before(async () => {
    if (!existsSync(CLI)) await run("pnpm", ["run", "build"], { cwd: PKG });
    dir = mkdtempSync(join(tmpdir(), "points-assets-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("add_list_remove_roundTrip", async () => {
    const added = await assets("add", "8453", "collateral", USDC.toLowerCase(), "--label", "USDC");
    assert.deepEqual([added.code, added.stdout], [0, `listed collateral ${USDC} on chain 8453\n`]);
    const listed = await assets("list", "--chain", "8453");
    assert.equal(listed.code, 0);
    const rows = JSON.parse(listed.stdout) as { chainId: string; kind: string; address: string; label: string }[];
    assert.deepEqual(
      rows.map((r) => [r.chainId, r.kind, r.address, r.label]),
      [["8453", "collateral", USDC, "USDC"]],
    );
    assert.equal((await assets("remove", "8453", "collateral", USDC)).code, 0);
    const again = await assets("remove", "8453", "collateral", USDC);
    assert.deepEqual([again.code, again.stderr], [1, `collateral ${USDC} is not on chain 8453's list\n`]);
  });

  it("anUnknownChainKindOrAddress_exits2_namingEachProblem", async () => {
    const res = await assets("add", "5", "token", "0x12", "--label", "x");
    assert.equal(res.code, 2);
    assert.equal(
      res.stderr,
      "chain 5 is not in CHAINS\nkind must be collateral or feed, not token\n0x12 is not an address\n",
    );
    assert.deepEqual(JSON.parse((await assets("list")).stdout), []);
  });

  it("add_withoutALabel_isAUsageError", async () => {
    const res = await assets("add", "8453", "feed", USDC);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /required option '--label <label>' not specified/);
  });
});
