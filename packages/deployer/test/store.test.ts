import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonFileStore, MemoryStore, type Release } from "../src/index.js";
import { fromJson, toJson } from "../src/store.js";

const release = (version: string, createdAt: string): Release => ({
  chainId: 31337n,
  version,
  deployer: "0x0000000000000000000000000000000000000001",
  programFactory: "0x0000000000000000000000000000000000000002",
  implementations: {} as Release["implementations"],
  contracts: {} as Release["contracts"],
  createdAt,
});

describe("JsonFileStore / MemoryStore: manifests and stage bookkeeping", () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "deployer-store-"))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("JsonFileStore_writesOneManifestPerChainAndBrand_andPerRelease", async () => {
    const store = new JsonFileStore(dir);
    await store.saveRelease(release("0.1.0", "2026-11-21T00:00:00.000Z"));
    await store.stageStarted({ chainId: 31337n, brand: "acme" }, "validate");
    assert.deepEqual((await readdir(path.join(dir, "31337"))).sort(), ["acme.json", "release-0.1.0.json"]);
    const manifest = JSON.parse(await readFile(path.join(dir, "31337", "release-0.1.0.json"), "utf8"));
    assert.equal(manifest.record.chainId, "31337");
    assert.deepEqual(await store.getRelease(31337n, "0.1.0"), release("0.1.0", "2026-11-21T00:00:00.000Z"));
  });

  it("JsonFileStore_concurrentUpdates_loseNothing_andLeaveNoTemporaryFile", async () => {
    const store = new JsonFileStore(dir);
    const ctx = { chainId: 1n, brand: "acme" };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.stageTransaction(ctx, "deploy", { hash: `0x${i}`, nonce: i, description: `tx ${i}` }),
      ),
    );
    const stages = await store.getStages(ctx);
    assert.equal(stages!.deploy!.transactions.length, 20);
    assert.deepEqual(await readdir(path.join(dir, "1")), ["acme.json"]);
  });

  it("stageStarted_onResume_keepsTransactionsAndPlannedNoncesOfEarlierAttempts", async () => {
    const store = new MemoryStore();
    const ctx = { chainId: 1n, version: "0.1.0" };
    await store.stageStarted(ctx, "release");
    await store.stageAddresses(ctx, "release", { points: "0xabc" }, { nonces: { points: 7 } });
    await store.stageTransaction(ctx, "release", { hash: "0x1", nonce: 7, description: "deploy Points" });
    await store.stageFinished(ctx, "release", "failed", "boom");
    await store.stageStarted(ctx, "release");
    const s = (await store.getStages(ctx))!.release!;
    assert.equal(s.status, "running");
    assert.deepEqual(s.nonces, { points: 7 });
    assert.equal(s.transactions[0].hash, "0x1");
  });

  it("stageFinished_keepsSignedTransactionsOfAFailedStage_dropsThemOnceItIsDone", async () => {
    const store = new MemoryStore();
    const ctx = { chainId: 1n, brand: "acme" };
    await store.stageStarted(ctx, "deploy");
    await store.stageTransaction(ctx, "deploy", { hash: "0x1", nonce: 7, description: "deploy Mock", raw: "0x02f8" });
    await store.stageFinished(ctx, "deploy", "failed", "boom");
    assert.equal((await store.getStages(ctx))!.deploy!.transactions[0].raw, "0x02f8", "a resumed run sends it again");
    await store.stageStarted(ctx, "deploy");
    assert.equal((await store.getStages(ctx))!.deploy!.transactions[0].raw, "0x02f8");
    await store.stageFinished(ctx, "deploy", "done");
    const [tx] = (await store.getStages(ctx))!.deploy!.transactions;
    assert.equal(tx.hash, "0x1");
    assert.equal(tx.raw, undefined, "final transactions need not be kept signed");
  });

  it("getRelease_withoutVersion_returnsTheNewest", async () => {
    const store = new MemoryStore();
    await store.saveRelease(release("0.2.0", "2026-11-22T00:00:00.000Z"));
    await store.saveRelease(release("0.1.0", "2026-11-21T00:00:00.000Z"));
    assert.equal((await store.getRelease(31337n))!.version, "0.2.0");
  });

  it("stores_refuseBrandsThatCouldEscapeTheDirectory", async () => {
    const store = new JsonFileStore(dir);
    await assert.rejects(() => store.stageStarted({ chainId: 1n, brand: "../../etc" }, "validate"));
  });
});

describe("fromJson: what toJson wrote, with every chainId a bigint again", () => {
  it("nestedManifest_sameAsTheReviver_everyChainIdABigintOtherStringsKept", () => {
    const text = toJson({
      chainId: 31337n,
      record: { chainId: 1n, brand: "a", upgrades: [{ chainId: 5n, note: "chainId" }], nested: [[{ chainId: "7" }]] },
      stages: { s: { chainId: 2n, n: 3, list: ["chainId", null, 1] } },
      other: { chainID: "9" },
    });
    const reviver = JSON.parse(text, (k, v) => (k === "chainId" && typeof v === "string" ? BigInt(v) : v));
    assert.deepEqual(fromJson(text), reviver);
    assert.deepEqual(fromJson(text), {
      chainId: 31337n,
      record: { chainId: 1n, brand: "a", upgrades: [{ chainId: 5n, note: "chainId" }], nested: [[{ chainId: 7n }]] },
      stages: { s: { chainId: 2n, n: 3, list: ["chainId", null, 1] } },
      other: { chainID: "9" },
    });
    assert.throws(() => fromJson('{"chainId":"x"}'), SyntaxError);
  });
});
