import assert from "node:assert/strict";
import { ContractFactory, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { deployProgram, ensureRelease, isDeployerError, loadArtifact, MemoryStore } from "../src/index.js";
import { CHAIN, config } from "./helpers/fixture.js";

/** What the executor holds: a refused deploy must leave both as they were. */
const holdings = async (node: DevNode, w: Wallet) => ({
  nonce: await node.provider.getTransactionCount(w.address, "latest"),
  balance: await node.provider.getBalance(w.address),
});

describe("gas cap: every transaction the executor would send is checked before it is signed", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;

  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
  });
  after(async () => {
    await node?.stop();
  });

  it("attack_aDeployNeedingMoreGasThanTheCap_isRefusedBeforeTheReleaseSendsAnything", async () => {
    const before = await holdings(node, executor);
    const store = new MemoryStore();
    await assert.rejects(
      deployProgram(config(brand), executor, store, { chain: CHAIN, maxGasPerTx: 100_000n }),
      (e: unknown) => isDeployerError(e, "GAS_CAP") && /over the cap of 100000; nothing was sent/.test(e.message),
    );
    assert.deepEqual(await holdings(node, executor), before);
  });

  it("attack_aProgramOverTheCap_onAKnownRelease_isRefusedInValidate_withNothingSent", async () => {
    const store = new MemoryStore();
    await ensureRelease(CHAIN, executor, store);
    const before = await holdings(node, executor);
    // Real collateral (no mock to deploy first): the program's own transaction is simulated in validate.
    const mock = loadArtifact("MockStablecoin");
    const usd = await new ContractFactory(mock.abi, mock.bytecode, node.wallets[5]).deploy("Test USD", "tUSD", 6);
    await usd.waitForDeployment();
    await assert.rejects(
      deployProgram(config(brand, { brand: "capped", collateralAsset: await usd.getAddress() }), executor, store, {
        chain: CHAIN,
        maxGasPerTx: 1_000_000n,
      }),
      (e: unknown) => isDeployerError(e, "GAS_CAP"),
    );
    assert.deepEqual(await holdings(node, executor), before);
    assert.equal((await store.getStages({ chainId: CHAIN.chainId, brand: "capped" }))?.validate?.status, "failed");
  });

  it("aCapAboveWhatTheDeployNeeds_deploysAsBefore", async () => {
    const program = await deployProgram(config(brand, { brand: "roomy" }), executor, new MemoryStore(), {
      chain: CHAIN,
      maxGasPerTx: 12_000_000n,
    });
    assert.equal(program.brand, "roomy");
  });
});
