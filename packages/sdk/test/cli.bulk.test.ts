import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getAddress, id, keccak256, parseUnits, toUtf8Bytes } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import { type Live, liveWithCampaign } from "./helpers/live.js";

const CLI = resolve(import.meta.dirname, "../src/cli/bulk.ts");
const SP = (n: string) => parseUnits(n, 18);
const CAMPAIGN = id("cli-drop");
const holders = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => getAddress("0x" + keccak256(toUtf8Bytes(`${seed}:${i}`)).slice(-40)));
const amount = (i: number) => `${(i % 4) + 1}.5`;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string[];
  err: string[];
}

// points-bulk (src/cli/bulk.ts) as a person runs it: its own process, the API over HTTP, the
// chain through --rpc-url, secrets from the environment; results checked on chain.
describe("sdk: the points-bulk command", () => {
  let live: Live;
  let dir: string;
  let vault: ReturnType<typeof PSPVault__factory.connect>;
  before(async () => {
    live = await liveWithCampaign(parseUnits("1000", 6), "cli-drop", SP("900"));
    vault = PSPVault__factory.connect(live.program.pspVault, live.node.provider);
    dir = mkdtempSync(join(tmpdir(), "points-bulk-cli-"));
  });
  after(async () => {
    await live?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the command; `onLine` sees each stdout line as it comes and may kill the process. */
  const run = (args: string[], onLine?: (line: string, kill: () => void) => void) =>
    new Promise<Run>((done) => {
      const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
        cwd: resolve(import.meta.dirname, ".."),
        env: {
          PATH: process.env.PATH,
          POINTS_API_URL: live.api.url,
          POINTS_API_KEY: live.apiKey,
          POINTS_PRIVATE_KEY: live.actors.brand.privateKey,
          RPC_URL: live.node.url,
        },
      });
      const r: Run = { code: null, signal: null, out: [], err: [] };
      let buffered = "";
      child.stdout.on("data", (b: Buffer) => {
        buffered += b.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop()!;
        for (const l of lines) {
          r.out.push(l);
          onLine?.(l, () => child.kill("SIGKILL"));
        }
      });
      child.stderr.on("data", (b: Buffer) => r.err.push(...b.toString().split("\n").filter(Boolean)));
      // A run that hangs fails the test instead of stalling the suite.
      const limit = setTimeout(() => child.kill("SIGKILL"), 120_000);
      child.on("exit", (code, signal) => {
        clearTimeout(limit);
        done({ ...r, code, signal });
      });
    });
  const csvFile = (name: string, lines: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.join("\n"));
    return path;
  };
  const nonce = () => live.node.provider.getTransactionCount(live.actors.brand.address);

  it("badRows_exit3_listEveryRow_andNeitherAPlanNorATransaction", async () => {
    const [a, b] = holders(2, "bad");
    const csv = csvFile("bad.csv", ["address,amount", `${a},1`, `${b},0.1234567890123456789`, `${a.toLowerCase()},2`]);
    const plan = join(dir, "bad.plan.json");
    const before = await nonce();
    const r = await run(["mint", "--campaign", "cli-drop", "--csv", csv, "--plan", plan]);
    assert.equal(r.code, 3, r.err.join("\n"));
    assert.deepEqual(r.err, [
      "error INVALID_ROWS: 2 bad rows: nothing was built (see details.rows)",
      "  row 2 (line 3) amount: has 19 decimals; the token has 18",
      "  row 3 (line 4) address: duplicates row 1: an address may appear once",
    ]);
    assert.equal(existsSync(plan), false);
    assert.equal(await nonce(), before);
  });

  it("dryRun_printsTotalsHeadroomAndTransactions_andSendsNothing", async () => {
    const csv = csvFile(
      "dry.csv",
      holders(4, "dry").map((a, i) => `${a},${amount(i)}`),
    );
    const before = await nonce();
    const r = await run(["mint", "--campaign", "cli-drop", "--csv", csv, "--dry-run"]);
    assert.equal(r.code, 0, r.err.join("\n"));
    assert.match(r.out[0], /^dry run mint [A-Za-z0-9_-]+: 4 rows, total 12$/);
    assert.equal(r.out[1], "  budget available 900, shortfall 0");
    assert.equal(r.out[2], "  recipients not allowed 0");
    assert.match(r.out[3], /^ {2}transactions 1 \(gas per row \d+, ceiling 10000000\)$/);
    assert.equal(await nonce(), before);
  });

  it("anInterruptedRun_resumesFromItsPlanFile_andEveryHolderIsPaidOnce", async () => {
    const to = holders(90, "drop");
    const csv = csvFile("drop.csv", ["address,amount", ...to.map((a, i) => `${a},${amount(i)}`)]);
    const plan = join(dir, "drop.plan.json");
    const total = to.reduce((s, _, i) => s + SP(amount(i)), 0n);
    const outstanding = (await vault.getCampaign(CAMPAIGN)).outstanding;
    const before = await nonce();
    // Blocks only when the test mines one: chunk 1 is mined, the run is killed while chunk 2 is
    // in the mempool (mined after the kill), the rest never sent.
    await live.node.setAutomine(false);
    const args = ["mint", "--campaign", "cli-drop", "--csv", csv, "--plan", plan, "--gas-ceiling", "1000000"];
    // "pending" is printed before the broadcast: wait until the node holds the transaction.
    const inMempool = async (hash: string) => {
      while (!(await live.node.provider.getTransaction(hash))) await new Promise((r) => setTimeout(r, 50));
    };
    const first = await run(args, (line, kill) => {
      const pending = /^chunk (\d+)\/\d+ .* pending (0x[0-9a-f]{64})$/.exec(line);
      if (pending?.[1] === "1") void inMempool(pending[2]).then(() => live.node.mine());
      if (pending?.[1] === "2") void inMempool(pending[2]).then(kill);
    });
    await live.node.mine();
    await live.node.setAutomine(true);
    assert.equal(first.signal, "SIGKILL");
    const n = Number(/transactions (\d+)/.exec(first.out.join("\n"))![1]);
    assert.ok(n >= 3, `${n} transactions`);
    assert.equal(await nonce(), before + 2, "chunks 1 and 2 landed");
    assert.ok(first.out.includes(`plan kept in ${plan}`));

    const second = await run(args);
    assert.equal(second.code, 0, second.err.join("\n"));
    assert.match(
      second.out[0],
      new RegExp(`^resuming mint [A-Za-z0-9_-]+ from .*drop\\.plan\\.json \\(${n} transactions\\)$`),
    );
    const status = second.out
      .filter((l) => l.startsWith("chunk "))
      .map((l) => /^chunk (\d+)\/\d+ rows \S+ (already on chain|pending|mined)/.exec(l)!.slice(1).join(" "));
    assert.deepEqual(status, [
      "1 already on chain",
      "2 already on chain",
      ...Array.from({ length: n - 2 }, (_, i) => [`${i + 3} pending`, `${i + 3} mined`]).flat(),
    ]);
    assert.equal(second.out.at(-1), `done: all ${n} transactions on chain (${n - 2} sent now, 2 already there)`);
    assert.equal(await nonce(), before + n, "one transaction per chunk, none twice");
    for (const [i, a] of to.entries()) assert.equal(await vault.balanceOf(CAMPAIGN, a), SP(amount(i)), a);
    assert.equal((await vault.getCampaign(CAMPAIGN)).outstanding, outstanding + total);
    // A third run finds everything on chain and signs nothing.
    const third = await run(args);
    assert.equal(third.code, 0);
    assert.equal(await nonce(), before + n);
    for (const r of [first, second, third]) {
      assert.ok(
        !(r.out.join("\n") + r.err.join("\n")).includes(live.actors.brand.privateKey.slice(2)),
        "no key printed",
      );
    }
  });

  it("theSameCsvAndBulkId_withANewPlanFile_paysNoOneTwice_andSaysWhatWasDone", async () => {
    const to = holders(30, "again");
    const csv = csvFile(
      "again.csv",
      to.map((a, i) => `${a},${amount(i)}`),
    );
    const args = (plan: string) => [
      "mint",
      "--campaign",
      "cli-drop",
      "--csv",
      csv,
      "--bulk-id",
      "cli-again",
      "--plan",
      plan,
    ];
    const first = await run(args(join(dir, "again-1.plan.json")));
    assert.equal(first.code, 0, first.err.join("\n"));
    const before = await nonce();
    const outstanding = (await vault.getCampaign(CAMPAIGN)).outstanding;
    // A new plan file: the drop is built again from the same CSV and bulk id.
    const second = await run(args(join(dir, "again-2.plan.json")));
    assert.equal(second.code, 0, second.err.join("\n"));
    assert.ok(
      second.out.includes(
        "bulk id cli-again: 30 of 30 rows already issued (1 transactions mined, 0 pending): not sent again",
      ),
      second.out.join("\n"),
    );
    assert.equal(await nonce(), before, "nothing signed");
    assert.equal((await vault.getCampaign(CAMPAIGN)).outstanding, outstanding);
    for (const [i, a] of to.entries()) assert.equal(await vault.balanceOf(CAMPAIGN, a), SP(amount(i)), a);
  });
});
