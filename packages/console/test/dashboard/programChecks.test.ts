import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet } from "ethers";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/dashboard/preflight/programChecks.ts";
type Check = (values: Record<string, string>, from: string) => Promise<{ message: string } | null>;
type Closing = { available: bigint; funder: string; programFunded: bigint; treasury: string };
const { closeCheck, fundCheck, mintSpCheck } = (await import(path)) as {
  closeCheck: (pointsPaused: () => boolean | null, closing: () => Promise<Closing | null>) => Check;
  mintSpCheck: (client: object, provider: () => null, asset: object, restricted: () => Promise<boolean>) => Check;
  fundCheck: (
    client: object,
    pointsPaused: () => boolean | null,
    unallocated: () => Promise<bigint | null>,
    symbol: string,
  ) => Check;
};

const me = Wallet.createRandom().address;
const receiver = Wallet.createRandom().address;
// A minter on the mint allowlist whom no transfer allowlist lists, holding no admin role.
const client = {
  factory: { whitelistStatus: async () => ({ mint: true, redeem: false, transfer: false }) },
  points: { isTransferWhitelisted: async () => false },
  roles: { check: async () => ({ hasRole: false }) },
  read: { balance: async () => ({ balance: "5000000000000000000000" }) },
};
const asset = { asset: Wallet.createRandom().address, symbol: "USDC", decimals: 6 };
const check = (restricted: boolean) =>
  mintSpCheck(
    client,
    () => null,
    asset,
    async () => restricted,
  );

// Points refuses an unlisted receiver only while transfers are restricted (docs/rules.md#points).
describe("a mint's receiver is checked against the transfer allowlist only while transfers are restricted", () => {
  it("restrictedTransfers_anUnlistedReceiver_stopsTheMintBeforeAnyApproval", async () => {
    assert.equal(
      (await check(true)({ amount: "1000000", receiver }, me))?.message,
      `The receiver ${receiver} is not on the transfer allowlist, and a mint needs its receiver on it, so the mint would fail. Ask the token's admin to add it.`,
    );
    assert.equal(
      (await check(true)({ amount: "1000000" }, me))?.message,
      `Your wallet ${me} is not on the transfer allowlist, and a mint needs its receiver on it, so the mint would fail. Ask the token's admin to add it.`,
    );
  });

  it("openTransfers_anUnlistedReceiver_mayBeMintedTo", async () => {
    assert.equal(await check(false)({ amount: "1000000", receiver }, me), null);
  });
});

// What the vault's unallocated SP does not cover comes from the wallet: an SP transfer, refused while the Points token is paused.
describe("funding a campaign stops at the form while the Points token is paused, unless unallocated SP covers it", () => {
  const ONE = "1000000000000000000";
  const asManager = { ...client, roles: { check: async () => ({ hasRole: true }) } };
  const fund = (c: object, paused: boolean | null, unallocated: bigint | null) =>
    fundCheck(
      c,
      () => paused,
      async () => unallocated,
      "ACME",
    );
  const stopped =
    "The Points token is paused, so this funding would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.";

  it("aPausedPointsToken_stopsAFunderWhoPaysFromTheWallet", async () => {
    assert.equal((await fund(client, true, 10n ** 30n)({ amount: ONE }, me))?.message, stopped);
    assert.equal((await fund(asManager, true, 0n)({ amount: ONE }, me))?.message, stopped);
  });

  it("aManagersFundingCoveredByUnallocatedSp_orARunningOrUnknownToken_goesOn", async () => {
    assert.equal(await fund(asManager, true, BigInt(ONE))({ amount: ONE }, me), null);
    assert.equal(await fund(asManager, true, null)({ amount: ONE }, me), null);
    assert.equal(await fund(client, false, 0n)({ amount: ONE }, me), null);
    assert.equal(await fund(client, null, 0n)({ amount: ONE }, me), null);
  });
});

// Closing pays the funder's share back and the program's to the treasury: SP transfers the paused Points token refuses.
describe("closing a campaign stops at the form while the Points token is paused, when closing would move SP", () => {
  const ZERO = "0x" + "0".repeat(40);
  const funder = Wallet.createRandom().address;
  const treasury = Wallet.createRandom().address;
  const close = (paused: boolean | null, c: Closing | null) =>
    closeCheck(
      () => paused,
      async () => c,
    )({}, me);
  const stopped =
    "The Points token is paused, so closing this campaign would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.";

  it("aFundersShare_orTheProgramsToATreasury_isStopped", async () => {
    assert.equal((await close(true, { available: 5n, funder, programFunded: 0n, treasury: ZERO }))?.message, stopped);
    assert.equal((await close(true, { available: 5n, funder: ZERO, programFunded: 0n, treasury }))?.message, stopped);
    assert.equal((await close(true, { available: 5n, funder, programFunded: 9n, treasury }))?.message, stopped);
  });

  it("nothingLeft_orProgramMoneyWithNoTreasury_orARunningOrUnknownToken_goesOn", async () => {
    assert.equal(await close(true, { available: 0n, funder, programFunded: 0n, treasury }), null);
    assert.equal(await close(true, { available: 5n, funder: ZERO, programFunded: 0n, treasury: ZERO }), null);
    assert.equal(await close(true, { available: 5n, funder, programFunded: 9n, treasury: ZERO }), null);
    assert.equal(await close(true, null), null);
    assert.equal(await close(false, { available: 5n, funder, programFunded: 0n, treasury: ZERO }), null);
  });
});
