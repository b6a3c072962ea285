import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { deployProgram } from "@points/testkit";
import { expectError, expectOk, setupE2E, SP, USDC, type E2E } from "./helpers/e2e.js";
import { startApi } from "./helpers/service.js";

// Every read route, checked field by field against the chain and the registry.
describe("e2e: read routes", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E({ withOracle: true });
    await e.giveSp(e.who.alice.address, SP(30));
  });
  after(() => e?.stop());

  describe("GET /api/v1/evm/balance/:address", () => {
    it("balance_isTheSpBalance_with18Decimals_andTransferAllowlistStatus_checksummed", async () => {
      const { alice } = e.who;
      const data = await e.ok("readBalance", { params: { address: alice.address.toLowerCase() } });
      assert.deepEqual(data, {
        address: alice.address,
        balance: SP(30).toString(),
        decimals: 18,
        transferWhitelisted: true,
      });
    });

    it("balance_ofAnUnknownHolder_isZero_andNotListed", async () => {
      const { outsider } = e.who;
      const data = await e.ok("readBalance", { params: { address: outsider.address } });
      assert.deepEqual(data, { address: outsider.address, balance: "0", decimals: 18, transferWhitelisted: false });
    });
  });

  describe("GET /api/v1/evm/factory/state", () => {
    it("factoryState_reportsModePauseFeesSupplyAndCollateralPerAsset_exactly", async () => {
      const data = await e.ok("readFactoryState");
      assert.deepEqual(data, {
        factory: e.record.factory,
        points: e.record.points,
        oracle: e.record.oracle,
        paused: false,
        pointsPaused: false,
        basketMode: false,
        basketModeForced: false,
        mintFeeBps: 0,
        redeemFeeBps: 0,
        feeReceiver: e.who.brand.address,
        redeemDelay: 3600,
        redeemRequestCount: "0",
        totalSupply: SP(30).toString(),
        transferRestricted: true,
        assets: [
          {
            asset: e.usdc,
            vault: e.record.collateralVault,
            decimals: 6,
            symbol: "USDC",
            collateral: USDC(30).toString(),
            pegged: true,
          },
        ],
        blockNumber: await e.node.provider.getBlockNumber(),
      });
    });

    it("factoryState_followsTheChain_whenBasketModeIsForced_feesChange_andTheFactoryPauses", async () => {
      const factory = e.c.factory.connect(e.who.brand);
      await (await factory.setBasketModeForced(true)).wait();
      await (await factory.setFees(10, 20)).wait();
      await (await factory.pause()).wait();
      try {
        const data = await e.ok("readFactoryState");
        assert.deepEqual(
          [data.basketMode, data.basketModeForced, data.mintFeeBps, data.redeemFeeBps, data.paused, data.pointsPaused],
          [true, true, 10, 20, true, false],
        );
      } finally {
        await (await factory.unpause()).wait();
        await (await factory.setFees(0, 0)).wait();
        await (await factory.setBasketModeForced(false)).wait();
      }
    });
  });

  describe("GET /api/v1/evm/factory/assets and /vault/:asset", () => {
    it("assets_listsEveryRegisteredAssetWithItsVault", async () => {
      assert.deepEqual(await e.ok("readFactoryAssets"), [{ asset: e.usdc, vault: e.record.collateralVault }]);
    });

    it("vault_ofARegisteredAsset_isItsCollateralVault", async () => {
      const data = await e.ok("readFactoryVault", { params: { asset: e.usdc.toLowerCase() } });
      assert.deepEqual(data, { asset: e.usdc, vault: e.record.collateralVault });
    });

    it("vault_ofAnUnregisteredAsset_is404", async () => {
      expectError(await e.call("readFactoryVault", { params: { asset: e.who.outsider.address } }), 404, "NOT_FOUND");
    });
  });

  describe("GET /api/v1/contracts/*", () => {
    const view = () => ({
      ...e.record,
      id: "acme",
      metadata: {},
      explorer: null,
    });
    const withoutCreatedAt = ({ createdAt, ...rest }: { createdAt: string } & Record<string, unknown>) => {
      assert.ok(!Number.isNaN(Date.parse(createdAt)), "createdAt is an ISO timestamp");
      return rest;
    };

    it("factories_listsEveryRegisteredProgram_withItsContracts", async () => {
      const list = await e.ok("listFactories");
      assert.equal(list.length, 1);
      assert.deepEqual(withoutCreatedAt(list[0]), view());
    });

    it("factoryById_findsTheProgramByBrand_andByFactoryAddressInAnyCase", async () => {
      const byBrand = await e.ok("getFactory", { params: { id: "acme" } });
      assert.deepEqual(withoutCreatedAt(byBrand), view());
      const byAddress = await e.ok("getFactory", { params: { id: e.record.factory.toLowerCase() } });
      assert.deepEqual(byAddress, byBrand);
    });

    it("factoryById_ofAnUnknownBrandOrAddress_is404", async () => {
      expectError(await e.call("getFactory", { params: { id: "nope" } }), 404, "NOT_FOUND");
      expectError(await e.call("getFactory", { params: { id: e.who.outsider.address } }), 404, "NOT_FOUND");
    });

    it("chainContracts_listsTheProgramsOfAConfiguredChain", async () => {
      const data = await e.ok("listChainContracts", { params: { chainId: "31337" } });
      assert.equal(data.chainId, "31337");
      assert.deepEqual(data.programs.map(withoutCreatedAt), [view()]);
    });

    it("chainContracts_ofAChainTheServerIsNotConfiguredFor_is400", async () => {
      expectError(await e.call("listChainContracts", { params: { chainId: "1" } }), 400, "INVALID_INPUT");
    });
  });

  describe("GET /api/v1/roles/check/:contract/:role/:address", () => {
    const check = (contract: string, role: string, address: string) =>
      e.ok("checkRole", { params: { contract, role, address } });

    it("checkRole_acceptsTheSpecName_theShortForm_andLowerCase_forTheSameRole", async () => {
      const { brand } = e.who;
      for (const role of ["MANAGER_ROLE", "MANAGER", "manager", "manager_role"]) {
        assert.deepEqual(await check("factory", role, brand.address.toLowerCase()), {
          contract: "factory",
          contractAddress: e.record.factory,
          role: "MANAGER_ROLE",
          address: brand.address,
          hasRole: true,
        });
      }
    });

    it("checkRole_answersFalse_forAnAccountWithoutTheRole", async () => {
      assert.equal((await check("factory", "MANAGER_ROLE", e.who.outsider.address)).hasRole, false);
    });

    it("checkRole_readsEveryContractByCaseInsensitiveName_andTheInitialRoles", async () => {
      const { brand, executor } = e.who;
      const cases: [string, string, string, boolean][] = [
        ["Points", "DEFAULT_ADMIN", brand.address, true],
        ["points", "MINTER_ROLE", e.record.factory, true],
        ["FACTORY", "EXECUTOR", executor.address, true],
        ["factory", "MANAGER", executor.address, false],
        ["collateralvault", "PAUSER_ROLE", brand.address, true],
        ["pspVault", "ISSUING_ADMIN", brand.address, true],
        ["PSPVAULT", "transfer_admin_role", executor.address, false],
        ["oracle", "DEFAULT_ADMIN_ROLE", brand.address, true],
      ];
      for (const [contract, role, address, has] of cases) {
        const data = await check(contract, role, address);
        assert.equal(data.hasRole, has, `${contract} ${role} ${address}`);
        assert.equal(data.contractAddress, e.record[data.contract as "points"]);
      }
    });

    // The path's parameters are described one by one, so any listed role is a valid request; a
    // role the contract does not define is simply not held, which is what the chain answers.
    it("checkRole_ofARoleTheContractDoesNotDefine_is200HasRoleFalse_asTheChainAnswers", async () => {
      for (const [contract, role, canonical] of [
        ["points", "MANAGER_ROLE", "MANAGER_ROLE"],
        ["pspVault", "EXECUTOR", "EXECUTOR_ROLE"],
        ["oracle", "MINTER", "MINTER_ROLE"],
      ]) {
        const res = await e.call("checkRole", { params: { contract, role, address: e.who.brand.address } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.contract, contract);
        assert.equal(res.body.data.role, canonical);
        assert.equal(res.body.data.hasRole, false);
      }
    });
  });

  describe("which program a route acts on, with two programs registered", () => {
    let beta: E2E["record"];
    before(async () => {
      const release = { programFactory: e.programFactory, usdc: e.usdc };
      ({ record: beta } = await deployProgram(e.node.provider, "beta", { release }));
      await e.api.service.ctx.programs.insert(beta);
    });

    it("routesWithoutProgram_are400NamingProgram", async () => {
      const { alice, brand } = e.who;
      const answers = [
        await e.call("readFactoryState"),
        await e.call("readBalance", { params: { address: alice.address } }),
        await e.call("buildTransfer", { body: { input: { to: brand.address, amount: "1" }, key: alice.address } }),
        await e.call("whitelistStatus", { params: { address: alice.address } }),
      ];
      for (const res of answers) {
        const d = expectError(res, 400, "INVALID_INPUT");
        assert.match(res.body.error.message, /\bprogram\b/);
        assert.equal(d.issues[0].field, "program");
      }
    });

    it("withProgramByBrandOrFactoryAddress_routesActOnThatProgram", async () => {
      const { alice, brand } = e.who;
      for (const program of ["beta", beta.factory.toLowerCase()]) {
        const state = await e.ok("readFactoryState", { query: { program } });
        assert.deepEqual(
          [state.factory, state.points, state.oracle, state.totalSupply],
          [beta.factory, beta.points, null, "0"],
        );
      }
      const acme = await e.ok("readBalance", { params: { address: alice.address }, query: { program: "acme" } });
      assert.equal(acme.balance, SP(30).toString());
      const input = { to: brand.address, amount: "1" };
      const tx = await e.ok("buildTransfer", { body: { input, key: alice.address, program: "acme" } });
      assert.equal(tx.to, e.record.points);
      assert.deepEqual(tx.program, { id: "acme", chainId: "31337", factory: e.record.factory });
      const status = await e.ok("whitelistStatus", { params: { address: alice.address }, query: { program: "beta" } });
      assert.deepEqual(status, { address: alice.address, mint: false, redeem: false, transfer: false });
    });

    it("aContractTheProgramDoesNotHave_is404_theOracleOfAnOracleLessProgram", async () => {
      const params = { contract: "oracle", role: "PAUSER", address: e.who.brand.address };
      expectError(await e.call("checkRole", { params, query: { program: "beta" } }), 404, "NOT_FOUND");
      const body = { input: { contract: "oracle" }, key: e.who.brand.address, program: "beta" };
      expectError(await e.call("pause", { body }), 404, "NOT_FOUND");
    });

    it("anUnknownProgram_is404", async () => {
      expectError(await e.call("readFactoryState", { query: { program: "nope" } }), 404, "NOT_FOUND");
    });

    it("factoryListings_showBothPrograms_inRegistrationOrder", async () => {
      assert.deepEqual(
        (await e.ok("listFactories")).map((p) => p.id),
        ["acme", "beta"],
      );
      const chain = await e.ok("listChainContracts", { params: { chainId: "31337" } });
      assert.deepEqual(
        chain.programs.map((p) => p.factory),
        [e.record.factory, beta.factory],
      );
    });

    it("theServersDefaultProgram_answersRoutesWithoutProgram", async () => {
      const api = await startApi(e.node.url, { DEFAULT_PROGRAM: "beta" });
      try {
        for (const p of [e.record, beta]) await api.service.ctx.programs.insert(p);
        const data = expectOk("readFactoryState", await api.call("GET", "/api/v1/evm/factory/state"));
        assert.equal(data.factory, beta.factory);
      } finally {
        await api.close();
      }
    });
  });
});
