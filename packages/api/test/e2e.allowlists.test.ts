import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { expectError, expectMissingRole, setupE2E, type E2E } from "./helpers/e2e.js";

// The six allowlist routes (and the status read), built, signed by the brand
// wallet (MANAGER_ROLE on the Factory, DEFAULT_ADMIN_ROLE on Points) and broadcast.
describe("e2e: allowlist routes, signed and broadcast", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E();
  });
  after(() => e?.stop());

  const status = (address: string) => e.ok("whitelistStatus", { params: { address } });

  // Which contract, function and role each list's routes map to (docs/glossary.md#allowlist-the-interfaces-whitelist).
  const lists = [
    { list: "mint", contract: "factory", role: "MANAGER_ROLE", add: "whitelistMintAdd", remove: "whitelistMintRemove" },
    {
      list: "redeem",
      contract: "factory",
      role: "MANAGER_ROLE",
      add: "whitelistRedeemAdd",
      remove: "whitelistRedeemRemove",
    },
    {
      list: "transfer",
      contract: "points",
      role: "DEFAULT_ADMIN_ROLE",
      add: "whitelistTransferAdd",
      remove: "whitelistTransferRemove",
    },
  ] as const;
  const fn = { mint: "MintWhitelist", redeem: "RedeemWhitelist", transfer: "TransferWhitelist" } as const;

  for (const { list, contract, role, add, remove } of lists) {
    describe(`${list} allowlist`, () => {
      it(`${add}_byTheRoleHolder_listsTheAccountOnChain_andTheStatusReadShowsIt`, async () => {
        const { brand, alice } = e.who;
        const data = await e.ok(add, { body: { account: alice.address.toLowerCase(), from: brand.address } });
        assert.deepEqual(
          [data.to, data.from, data.call],
          [e.record[contract], brand.address, { contract, function: `addTo${fn[list]}`, args: [alice.address] }],
        );
        await e.send(brand, data);
        const onChain =
          list === "transfer"
            ? await e.c.points.isTransferWhitelisted(alice.address)
            : await e.c.factory[list === "mint" ? "isMintWhitelisted" : "isRedeemWhitelisted"](alice.address);
        assert.equal(onChain, true);
        assert.equal((await status(alice.address))[list], true);
      });

      it(`${remove}_byTheRoleHolder_unlistsTheAccountOnChain`, async () => {
        const { brand, alice } = e.who;
        const data = await e.ok(remove, { body: { account: alice.address, from: brand.address } });
        assert.equal(data.call.function, `removeFrom${fn[list]}`);
        await e.send(brand, data);
        assert.equal((await status(alice.address))[list], false);
      });

      it(`${add}_and_${remove}_fromAnAccountWithout${role}_are403MissingRole`, async () => {
        const { outsider, alice } = e.who;
        for (const name of [add, remove]) {
          const res = await e.call(name, { body: { account: alice.address, from: outsider.address } });
          expectMissingRole(res, { contract, role, account: outsider.address });
        }
      });
    });
  }

  describe("GET /studio/sdk/v1/factory/whitelist/:address", () => {
    it("whitelistStatus_reportsMintRedeemAndTransferIndependently", async () => {
      const { brand, bob } = e.who;
      await e.send(brand, await e.ok("whitelistRedeemAdd", { body: { account: bob.address, from: brand.address } }));
      assert.deepEqual(await status(bob.address.toLowerCase()), {
        address: bob.address,
        mint: false,
        redeem: true,
        transfer: false,
      });
    });

    it("whitelistStatus_ofTheFactory_showsItOnTheTransferAllowlistFromBirth", async () => {
      const data = await status(e.record.factory);
      assert.deepEqual([data.mint, data.redeem, data.transfer], [false, false, true]);
    });
  });

  it("whitelistMintAdd_withoutApiKey_is401", async () => {
    const { brand, alice } = e.who;
    const res = await e.call("whitelistMintAdd", {
      body: { account: alice.address, from: brand.address },
      auth: false,
    });
    expectError(res, 401, "UNAUTHORIZED");
  });
});
