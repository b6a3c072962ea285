import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet, ZeroAddress, id, parseUnits } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { encodeMultiSend } from "@points/testkit";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/safe/decode.ts";
const { decodeCalls, decodeSafeTx, unpackMultiSend, addressName } = (await import(source)) as {
  addressName: (program: object, address: string, known?: object) => string | null;
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
      { name: "Limit", kind: "psp", value: SP("100").toString() },
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

describe("every call the console builds reads in its own units: pSP is not SP, collateral in its token, requests by number", () => {
  const spring = id("spring");
  const alice = addr();
  const asset = addr();
  const one = (to: string, data: string) => decodeCalls(program, [{ to, data }], { [spring]: "spring" })[0];

  it("issueSettleExpireAndMove_onTheCampaignVault_areAmountsOfPsp", () => {
    const v = INTERFACES.pspVault;
    const calls = [
      one(program.pspVault, v.encodeFunctionData("mint", [spring, alice, SP("30"), ""])),
      one(program.pspVault, v.encodeFunctionData("mintBatch", [spring, [alice, alice], [SP("1"), SP("2.5")], ""])),
      one(program.pspVault, v.encodeFunctionData("settle", [alice, alice, SP("12"), spring, ""])),
      one(program.pspVault, v.encodeFunctionData("expire", [alice, SP("3"), spring, ""])),
      one(program.pspVault, v.encodeFunctionData("transfer", [spring, alice, alice, SP("4")])),
    ];
    assert.deepEqual(
      calls.map((c) => [c.action, c.args.find((a: { name: string }) => /^Amount/.test(a.name))]),
      [
        ["Issue", { name: "Amount", kind: "psp", value: SP("30").toString() }],
        ["Issue to several holders", { name: "Amounts", kind: "psp", value: `${SP("1")},${SP("2.5")}` }],
        ["Settle pSP", { name: "Amount", kind: "psp", value: SP("12").toString() }],
        ["Expire pSP", { name: "Amount", kind: "psp", value: SP("3").toString() }],
        ["Transfer", { name: "Amount", kind: "psp", value: SP("4").toString() }],
      ],
    );
  });

  it("aRedemptionRequest_namesItsArguments_andItsAmountIsSp_notSmallestUnits", () => {
    const c = one(
      program.factory,
      INTERFACES.factory.encodeFunctionData("requestRedeem", [asset, alice, SP("100"), false]),
    );
    assert.equal(c.action, "Request a redemption");
    assert.deepEqual(c.args, [
      { name: "Collateral", kind: "address", value: asset },
      { name: "Pays to", kind: "address", value: alice },
      { name: "Amount", kind: "sp", value: SP("100").toString() },
      { name: "Basket mode expected", kind: "text", value: "no" },
    ]);
    const f = INTERFACES.factory;
    assert.deepEqual(
      [
        one(program.factory, f.encodeFunctionData("cancelRedeem", [2n])),
        one(program.factory, f.encodeFunctionData("finalizeRedeem", [7n])),
        one(program.factory, f.encodeFunctionData("finalizeRedeemBatch", [[7n, 8n]])),
      ].map((x) => [x.action, x.args]),
      [
        ["Cancel a redemption request", [{ name: "Request", kind: "text", value: "#2" }]],
        ["Finalize a redemption", [{ name: "Request", kind: "text", value: "#7" }]],
        ["Finalize redemptions", [{ name: "Requests", kind: "text", value: "#7, #8" }]],
      ],
    );
  });

  it("mintingSp_paysCollateralInTheCollateralTokensOwnUnits", () => {
    const c = one(program.factory, INTERFACES.factory.encodeFunctionData("mint", [asset, 250_000_000n, alice]));
    assert.equal(c.action, "Mint SP from collateral");
    assert.deepEqual(c.args, [
      { name: "Collateral", kind: "address", value: asset },
      { name: "Collateral paid", kind: "token", value: "250000000", token: asset },
      { name: "SP goes to", kind: "address", value: alice },
    ]);
  });

  it("theFactorysSettings_readAsADurationAndPercentages", () => {
    const f = INTERFACES.factory;
    const delay = one(program.factory, f.encodeFunctionData("setRedeemDelay", [5400n]));
    const fees = one(program.factory, f.encodeFunctionData("setFees", [25n, 0n]));
    assert.deepEqual(
      [delay.action, delay.args],
      ["Set the redeem delay", [{ name: "Redeem delay", kind: "text", value: "1 h 30 min" }]],
    );
    assert.deepEqual(
      [fees.action, fees.args],
      [
        "Set the fees",
        [
          { name: "Mint fee", kind: "text", value: "0.25% (25 bps)" },
          { name: "Redeem fee", kind: "text", value: "none (0 bps)" },
        ],
      ],
    );
  });

  it("theProgramsContracts_areNamed_anyOtherAddressIsNot", () => {
    assert.equal(addressName(program, program.pspVault.toLowerCase()), "Campaign vault");
    assert.equal(addressName(program, program.factory), "Factory");
    assert.equal(addressName(program, program.points), "Points token");
    assert.equal(addressName(program, alice), null);
  });

  it("theConnectedWallet_andTheSafesHoldingRoles_areNamed_aContractNameComesFirst", () => {
    const admin = addr();
    const ops = addr();
    const known = {
      wallet: alice.toLowerCase(),
      safes: [
        { address: admin, roles: [{ role: "DEFAULT_ADMIN_ROLE" }, { role: "DEFAULT_ADMIN_ROLE" }] },
        { address: ops, roles: [{ role: "MANAGER_ROLE" }, { role: "PAUSER_ROLE" }] },
      ],
    };
    assert.equal(addressName(program, alice, known), "your wallet");
    assert.equal(addressName(program, admin.toLowerCase(), known), "Admin Safe");
    assert.equal(addressName(program, ops, known), "Manager and Pauser Safe");
    assert.equal(addressName(program, program.factory, { ...known, wallet: program.factory }), "Factory");
    assert.equal(addressName(program, asset, known), null);
  });
});
