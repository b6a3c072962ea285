import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet, ZeroAddress, id, parseUnits } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { encodeMultiSend } from "@points/testkit";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/safe/decode.ts";
const { decodeCalls, decodeSafeTx, unpackMultiSend } = (await import(source)) as {
  decodeCalls: (program: object, calls: { to: string; data: string }[], names?: Record<string, string>) => any[];
  decodeSafeTx: (program: object, tx: object, names?: Record<string, string>) => any[];
  unpackMultiSend: (data: string) => { to: string; data: string }[] | null;
};

const addr = () => Wallet.createRandom().address;
const program = { factory: addr(), points: addr(), collateralVault: addr(), pspVault: addr(), oracle: null };
const safeTx = (to: string, data: string, operation: 0 | 1) => ({
  to,
  value: "0",
  data,
  operation,
  safeTxGas: "0",
  baseGas: "0",
  gasPrice: "0",
  gasToken: ZeroAddress,
  refundReceiver: ZeroAddress,
  nonce: "3",
});
const SP = (n: string) => parseUnits(n, 18);

describe("a Safe transaction reads as words: each call of a MultiSend batch, amounts in SP, campaigns by label", () => {
  const alice = addr();
  const minter = addr();
  const spring = id("spring");
  const calls = [
    {
      to: program.pspVault,
      data: INTERFACES.pspVault.encodeFunctionData("createCampaign", [
        spring,
        SP("1500.5"),
        [alice],
        [],
        JSON.stringify({ label: "spring" }),
      ]),
    },
    {
      to: program.pspVault,
      data: INTERFACES.pspVault.encodeFunctionData("setMinter", [spring, minter, SP("100"), true]),
    },
    {
      to: program.factory,
      data: INTERFACES.factory.encodeFunctionData("grantRole", [id("MANAGER_ROLE"), alice]),
    },
  ];

  it("aBatch_isListedCallByCall_withTheCampaignCreatedInItNamedByItsVerifiedLabel", () => {
    const tx = safeTx(addr(), encodeMultiSend(calls), 1);
    assert.deepEqual(unpackMultiSend(tx.data), calls);
    const d = decodeSafeTx(program, tx);
    assert.deepEqual(
      d.map((c) => [c.known, c.contract, c.fn, c.action]),
      [
        [true, "pspVault", "createCampaign", "Create a campaign"],
        [true, "pspVault", "setMinter", "Configure a delegated minter"],
        [true, "factory", "grantRole", "Grant a role"],
      ],
    );
    assert.deepEqual(d[0].args, [
      { name: "Campaign", kind: "campaign", value: spring, label: "spring" },
      { name: "Budget", kind: "sp", value: SP("1500.5").toString() },
      { name: "Settlement destinations", kind: "addresses", value: [alice] },
      { name: "pSP transfer allowlist", kind: "addresses", value: [] },
      { name: "Metadata", kind: "text", value: '{"label":"spring"}' },
    ]);
    assert.deepEqual(d[1].args, [
      { name: "Campaign", kind: "campaign", value: spring, label: "spring" },
      { name: "Minter", kind: "address", value: minter },
      { name: "Limit", kind: "sp", value: SP("100").toString() },
      { name: "Active", kind: "text", value: "yes" },
    ]);
    assert.deepEqual(d[2].args, [
      { name: "Role", kind: "role", value: "MANAGER_ROLE" },
      { name: "Account", kind: "address", value: alice },
    ]);
  });

  it("aCampaignWhoseLabelDoesNotHashToItsId_staysUnnamed", () => {
    const fake = JSON.stringify({ label: "summer" });
    const data = INTERFACES.pspVault.encodeFunctionData("createCampaign", [spring, 0n, [], [], fake]);
    const [c] = decodeSafeTx(program, safeTx(program.pspVault, data, 0));
    assert.equal(c.args[0].label, undefined);
  });

  it("aWalletsOwnCall_readsAsTheTransactionDialogReviewsIt_amountInSp_campaignByTheLedgersName", () => {
    const data = INTERFACES.pspVault.encodeFunctionData("fundCampaign", [spring, SP("250")]);
    const [c] = decodeCalls(program, [{ to: program.pspVault, data }], { [spring]: "spring" });
    assert.deepEqual([c.known, c.contract, c.fn, c.action], [true, "pspVault", "fundCampaign", "Fund a campaign"]);
    assert.deepEqual(c.args, [
      { name: "Campaign", kind: "campaign", value: spring, label: "spring" },
      { name: "Amount", kind: "sp", value: SP("250").toString() },
    ]);
  });

  it("aCallToAnotherContract_orBrokenBatchData_isSaidToBeUnreadable_notGuessed", () => {
    const stranger = addr();
    const [c] = decodeSafeTx(program, safeTx(stranger, "0xdeadbeef", 0));
    assert.deepEqual([c.known, c.contract, c.to, c.action], [false, null, stranger, "A call the console cannot read"]);
    assert.deepEqual(c.args, [{ name: "Data", kind: "text", value: "4 bytes" }]);
    const cut = encodeMultiSend(calls).slice(0, -64 * 2);
    assert.equal(unpackMultiSend(cut), null);
    assert.equal(decodeSafeTx(program, safeTx(addr(), cut, 1))[0].known, false);
  });
});
