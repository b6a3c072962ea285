import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroAddress } from "ethers";
import { FACTORY_MAX_FEE_BPS, FACTORY_MAX_REDEEM_DELAY } from "@points/schema";
import { expectError, expectMissingRole, expectOk, expectRevert, setupE2E, type E2E } from "./helpers/e2e.js";

// The Factory's settings: PUT /api/v1/settings/redeem-delay (MANAGER_ROLE), /fees and
// /fee-receiver (DEFAULT_ADMIN_ROLE), each built, signed, broadcast and read back from the chain.
describe("e2e: the Factory's settings (redeem delay, fees, fee receiver), signed and broadcast", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E();
  });
  after(() => e?.stop());

  const body = (input: object, key: string) => ({ body: { input, key } });
  type Setting = "setRedeemDelay" | "setFees" | "setFeeReceiver";

  it("schemaBounds_areTheFactorysOwnConstants", async () => {
    assert.equal(Number(await e.c.factory.MAX_FEE_BPS()), FACTORY_MAX_FEE_BPS);
    assert.equal(Number(await e.c.factory.MAX_REDEEM_DELAY()), FACTORY_MAX_REDEEM_DELAY);
  });

  it("redeemDelay_byAManager_lands_andReadsBackExactly_includingTheLongestAndZero", async () => {
    const { brand } = e.who;
    for (const delay of [7200, FACTORY_MAX_REDEEM_DELAY, 0]) {
      const built = expectOk("setRedeemDelay", await e.call("setRedeemDelay", body({ delay }, brand.address)));
      assert.deepEqual(built.call, { contract: "factory", function: "setRedeemDelay", args: [delay] });
      assert.deepEqual([built.to, built.from], [e.record.factory, brand.address]);
      await e.send(brand, built);
      assert.equal(await e.c.factory.redeemDelay(), BigInt(delay));
      assert.equal((await e.ok("readFactoryState")).redeemDelay, delay);
    }
  });

  it("feeReceiver_thenFees_byTheAdmin_land_andReadBackExactly", async () => {
    const { brand, carol } = e.who;
    // A lowercase address is accepted; the answer and the chain hold it checksummed.
    const receiver = expectOk(
      "setFeeReceiver",
      await e.call("setFeeReceiver", body({ feeReceiver: carol.address.toLowerCase() }, brand.address)),
    );
    assert.deepEqual(receiver.call, { contract: "factory", function: "setFeeReceiver", args: [carol.address] });
    await e.send(brand, receiver);
    assert.equal(await e.c.factory.feeReceiver(), carol.address);

    // With a fee on, the receiver must be able to receive SP (the Points transfer allowlist).
    await (await e.c.points.connect(brand).addToTransferWhitelist(carol.address)).wait();
    const fees = expectOk(
      "setFees",
      await e.call("setFees", body({ mintFeeBps: 25, redeemFeeBps: FACTORY_MAX_FEE_BPS }, brand.address)),
    );
    assert.deepEqual(fees.call, { contract: "factory", function: "setFees", args: [25, 1000] });
    await e.send(brand, fees);
    assert.deepEqual([await e.c.factory.mintFeeBps(), await e.c.factory.redeemFeeBps()], [25n, 1000n]);
    const state = await e.ok("readFactoryState");
    assert.deepEqual([state.mintFeeBps, state.redeemFeeBps, state.feeReceiver], [25, 1000, carol.address]);

    await e.send(brand, await e.ok("setFees", body({ mintFeeBps: 0, redeemFeeBps: 0 }, brand.address)));
    assert.deepEqual([await e.c.factory.mintFeeBps(), await e.c.factory.redeemFeeBps()], [0n, 0n]);
  });

  it("fees_withAReceiverThatCannotReceiveSp_is422FeeReceiverNotWhitelisted", async () => {
    const { brand, bob } = e.who;
    await e.send(brand, await e.ok("setFeeReceiver", body({ feeReceiver: bob.address }, brand.address)));
    const res = await e.call("setFees", body({ mintFeeBps: 1, redeemFeeBps: 0 }, brand.address));
    expectRevert(res, "factory", "FeeReceiverNotWhitelisted", { feeReceiver: bob.address });
    assert.equal(await e.c.factory.mintFeeBps(), 0n, "nothing changed");
  });

  it("wrongRole_isTheExact403MissingRole_aManagerIsNoAdmin", async () => {
    const { brand, outsider, alice } = e.who;
    const cases: [Setting, object][] = [
      ["setRedeemDelay", { delay: 60 }],
      ["setFees", { mintFeeBps: 1, redeemFeeBps: 1 }],
      ["setFeeReceiver", { feeReceiver: alice.address }],
    ];
    const needs = {
      setRedeemDelay: "MANAGER_ROLE",
      setFees: "DEFAULT_ADMIN_ROLE",
      setFeeReceiver: "DEFAULT_ADMIN_ROLE",
    };
    for (const [name, input] of cases) {
      expectMissingRole(await e.call(name, body(input, outsider.address)), {
        contract: "factory",
        role: needs[name],
        account: outsider.address,
      });
    }
    // alice made a manager: she sets the delay, not the fees nor their receiver.
    await e.send(
      brand,
      await e.ok("grantRole", body({ contract: "factory", role: "MANAGER", account: alice.address }, brand.address)),
    );
    await e.send(alice, await e.ok("setRedeemDelay", body({ delay: 60 }, alice.address)));
    assert.equal(await e.c.factory.redeemDelay(), 60n);
    for (const [name, input] of cases.slice(1)) {
      expectMissingRole(await e.call(name, body(input, alice.address)), {
        contract: "factory",
        role: "DEFAULT_ADMIN_ROLE",
        account: alice.address,
      });
    }
  });

  it("inputOutsideTheContractsBounds_is400InvalidInput_namingTheField_neverARevert", async () => {
    const { brand } = e.who;
    const badChecksum = (a: string) => a.slice(0, 2) + a.slice(2).replace(/[a-f]/, (c) => c.toUpperCase());
    const mixed = brand.address.toLowerCase();
    const cases: [Setting, object, string][] = [
      ["setRedeemDelay", { delay: FACTORY_MAX_REDEEM_DELAY + 1 }, "body.input.delay"],
      ["setRedeemDelay", { delay: -1 }, "body.input.delay"],
      ["setRedeemDelay", { delay: 1.5 }, "body.input.delay"],
      ["setRedeemDelay", { delay: "3600" }, "body.input.delay"],
      ["setRedeemDelay", {}, "body.input.delay"],
      ["setFees", { mintFeeBps: FACTORY_MAX_FEE_BPS + 1, redeemFeeBps: 0 }, "body.input.mintFeeBps"],
      ["setFees", { mintFeeBps: 0, redeemFeeBps: FACTORY_MAX_FEE_BPS + 1 }, "body.input.redeemFeeBps"],
      ["setFees", { mintFeeBps: -1, redeemFeeBps: 0 }, "body.input.mintFeeBps"],
      ["setFees", { mintFeeBps: 0, redeemFeeBps: 2.5 }, "body.input.redeemFeeBps"],
      ["setFees", { mintFeeBps: 0 }, "body.input.redeemFeeBps"],
      ["setFeeReceiver", { feeReceiver: ZeroAddress }, "body.input.feeReceiver"],
      ["setFeeReceiver", { feeReceiver: badChecksum(mixed) }, "body.input.feeReceiver"],
      ["setFeeReceiver", { feeReceiver: "0x1234" }, "body.input.feeReceiver"],
    ];
    for (const [name, input, field] of cases) {
      const d = expectError(await e.call(name, body(input, brand.address)), 400, "INVALID_INPUT");
      assert.deepEqual(
        d.issues.map((i: { field: string }) => i.field),
        [field],
        `${name} ${JSON.stringify(input)}`,
      );
    }
    const max = await e.call("setFees", body({ mintFeeBps: FACTORY_MAX_FEE_BPS + 1, redeemFeeBps: 0 }, brand.address));
    assert.match(max.body.error.message, /at most 1000 \(10%\)/);
    const long = await e.call("setRedeemDelay", body({ delay: FACTORY_MAX_REDEEM_DELAY + 1 }, brand.address));
    assert.match(long.body.error.message, /at most 2592000 seconds \(30 days\)/);
  });

  it("withoutAnApiKey_is401", async () => {
    const res = await e.call("setRedeemDelay", { ...body({ delay: 1 }, e.who.brand.address), auth: false });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("anotherTenantsKey_getsWhatPauseAndGrantRoleGive_theBuildForItsOwnSigner_andTheChainBindsIt", async () => {
    const { ctx } = e.api.service;
    const { brand, outsider, carol } = e.who;
    const owner = await ctx.keys.create("tenant-a");
    const other = await ctx.keys.create("tenant-b");
    const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
    await ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ('settings-tenant', $1, 'h', '{}', 'acme', '31337', 'succeeded', 'acme')`,
      [owner.info.id],
    );
    const put = (path: string, input: object, key: string) =>
      e.api.call("PUT", `/api/v1/settings/${path}`, { input, key, program: "acme" }, bearer(other.key));
    try {
      // The other build routes: a key builds for any program; only the signer's roles count.
      const pause = await e.api.call(
        "POST",
        "/api/v1/freeze/pause",
        { input: { contract: "factory" }, key: outsider.address, program: "acme" },
        bearer(other.key),
      );
      expectMissingRole(pause, { contract: "factory", role: "PAUSER_ROLE", account: outsider.address });
      const grant = await e.api.call(
        "PUT",
        "/api/v1/roles/grant",
        {
          input: { contract: "factory", role: "MANAGER", account: carol.address },
          key: brand.address,
          program: "acme",
        },
        bearer(other.key),
      );
      assert.equal(grant.status, 200, JSON.stringify(grant.body));

      const missing = [
        [await put("redeem-delay", { delay: 1 }, outsider.address), "MANAGER_ROLE"],
        [await put("fees", { mintFeeBps: 0, redeemFeeBps: 0 }, outsider.address), "DEFAULT_ADMIN_ROLE"],
        [await put("fee-receiver", { feeReceiver: carol.address }, outsider.address), "DEFAULT_ADMIN_ROLE"],
      ] as const;
      for (const [res, role] of missing) {
        expectMissingRole(res, { contract: "factory", role, account: outsider.address });
      }
      // For the program's own admin as signer it builds, as grantRole did: only that wallet can sign it.
      const built = expectOk("setRedeemDelay", await put("redeem-delay", { delay: 5 }, brand.address));
      assert.equal(built.from, brand.address);
      assert.notEqual(await e.c.factory.redeemDelay(), 5n, "built, not sent");
    } finally {
      await ctx.db.query("DELETE FROM onboarding_tasks WHERE id = 'settings-tenant'");
    }
  });
});
