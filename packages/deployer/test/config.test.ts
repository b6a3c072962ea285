import assert from "node:assert/strict";
import { ZeroAddress, type Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import { deployProgram, DeployerError, MemoryStore, type DeployConfig } from "../src/index.js";
import { CHAIN, config, deployAcme } from "./helpers/fixture.js";

/** A refusal: a DeployerError with `code` whose message starts with the field it names. */
function refused(code: string, field: string) {
  return (e: unknown) => {
    assert.ok(e instanceof DeployerError, String(e));
    assert.equal(e.code, code);
    assert.ok(e.message.startsWith(`${field}:`), `message "${e.message}" should name ${field}`);
    return true;
  };
}

describe("deployProgram: validate refuses bad config before any transaction", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;

  before(async () => ({ node, executor, brand, store } = await deployAcme()));
  after(() => node.stop());

  async function expectRefused(overrides: Partial<DeployConfig>, code: string, field: string) {
    const nonce = await node.provider.getTransactionCount(executor.address);
    await assert.rejects(
      deployProgram(config(brand, overrides), executor, store, { chain: CHAIN }),
      refused(code, field),
    );
    assert.equal(await node.provider.getTransactionCount(executor.address), nonce, "nothing was sent");
  }

  for (const bad of ["Acme", "ac-me", "ac me", "acmé", "", "a".repeat(33), "../x"]) {
    it(`validate_refusesBrand_${JSON.stringify(bad)}_withInvalidConfigNamingBrand`, () =>
      expectRefused({ brand: bad }, "INVALID_CONFIG", "brand"));
  }

  it("validate_refusesZeroDeployer", () =>
    expectRefused({ brand: "zero1", deployer: ZeroAddress }, "INVALID_CONFIG", "deployer"));
  it("validate_refusesMalformedDeployer", () =>
    expectRefused({ brand: "zero2", deployer: "0x1234" }, "INVALID_CONFIG", "deployer"));
  it("validate_refusesZeroCollateralAsset", () =>
    expectRefused({ brand: "zero3", collateralAsset: ZeroAddress }, "INVALID_CONFIG", "collateralAsset"));
  it("validate_refusesCollateralAssetWithoutCode", () =>
    expectRefused(
      { brand: "zero4", collateralAsset: "0x000000000000000000000000000000000000dEaD" },
      "INVALID_CONFIG",
      "collateralAsset",
    ));
  it("validate_refusesZeroFeeReceiver", () =>
    expectRefused({ brand: "zero5", feeReceiver: ZeroAddress }, "INVALID_CONFIG", "feeReceiver"));
  it("validate_refusesZeroOracleFeed", () =>
    expectRefused(
      { brand: "zero6", oracle: { feed: ZeroAddress, heartbeat: 60, lowerPeg: 1n, upperPeg: 2n } },
      "INVALID_CONFIG",
      "oracle.feed",
    ));
  it("validate_refusesMintFeeAboveMaximum_1000bps", () =>
    expectRefused({ brand: "fee1", mintFeeBps: 1001 }, "INVALID_CONFIG", "mintFeeBps"));
  it("validate_refusesRedeemFeeAboveMaximum_1000bps", () =>
    expectRefused({ brand: "fee2", redeemFeeBps: 5000 }, "INVALID_CONFIG", "redeemFeeBps"));
  it("validate_refusesRedeemDelayAbove30Days", () =>
    expectRefused({ brand: "delay1", redeemDelay: 30 * 24 * 3600 + 1 }, "INVALID_CONFIG", "redeemDelay"));
  it("validate_refusesTakenBrand_withBrandTaken", async () => {
    // Same brand, another brand wallet: someone else's program, not a resume.
    const other = node.wallets[3];
    const nonce = await node.provider.getTransactionCount(executor.address);
    await assert.rejects(
      deployProgram(config(other), executor, store, { chain: CHAIN }),
      refused("BRAND_TAKEN", "brand"),
    );
    assert.equal(await node.provider.getTransactionCount(executor.address), nonce);
  });
  it("validate_refusesMockCollateral_offADevChain", () =>
    assert.rejects(
      deployProgram(config(brand, { brand: "prod" }), executor, store, { chain: { ...CHAIN, dev: false } }),
      refused("INVALID_CONFIG", "collateralAsset"),
    ));
  it("validate_refusesASignerThatIsNotTheOperator_withWrongKey", async () => {
    const stranger = node.wallets[4];
    await assert.rejects(
      deployProgram(config(brand, { brand: "other" }), stranger, store, { chain: CHAIN }),
      refused("WRONG_KEY", "signer"),
    );
    assert.equal(await node.provider.getTransactionCount(stranger.address), 0);
  });
  it("validate_refusesAPoorSigner_withInsufficientFunds", async () => {
    const poor = node.wallets[6];
    await node.setBalance(poor.address, 0x1000n);
    await assert.rejects(
      deployProgram(config(brand, { brand: "poor" }), poor, new MemoryStore(), { chain: CHAIN }),
      refused("INSUFFICIENT_FUNDS", "signer"),
    );
    assert.equal(await node.provider.getTransactionCount(poor.address), 0);
  });
  it("validate_reportsTheFailedStage_toTheStore", async () => {
    await assert.rejects(
      deployProgram(config(brand, { brand: "fee3", mintFeeBps: 2000 }), executor, store, { chain: CHAIN }),
    );
    const stages = await store.getStages({ chainId: CHAIN.chainId, brand: "fee3" });
    assert.equal(stages!.validate!.status, "failed");
    assert.match(stages!.validate!.error!, /^mintFeeBps:/);
    assert.equal(stages!.deploy, undefined);
  });
  it("deployProgram_unreachableRpc_isChainUnavailable_notAHang", async () => {
    const { JsonRpcProvider, Wallet } = await import("ethers");
    const dead = new JsonRpcProvider("http://127.0.0.1:9", CHAIN.chainId, { staticNetwork: true });
    const signer = new Wallet(executor.privateKey, dead);
    await assert.rejects(
      deployProgram(config(brand, { brand: "dead" }), signer, new MemoryStore(), { chain: CHAIN, timeoutMs: 2_000 }),
      (e: unknown) => e instanceof DeployerError && e.code === "CHAIN_UNAVAILABLE",
    );
    dead.destroy();
  });
});
