import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { hexlify, decodeBase64, parseUnits } from "ethers";
import { PointsApiError, type PreparedTx } from "../src/index.js";
import { expectWrongSigner, type Live, liveWithCampaign, mintUsdc } from "./helpers/live.js";

const SP = (n: string) => parseUnits(n, 18).toString();

describe("transactions: SDK and raw HTTP, and send(signer) on a live chain", () => {
  let live: Live;
  before(async () => {
    live = await liveWithCampaign(parseUnits("100", 6), "c1", parseUnits("50", 18));
    const { brand } = live.actors;
    await (
      await live.client.points.addToTransferWhitelist(live.actors.alice.address, { from: brand.address })
    ).send(brand);
  });
  after(() => live?.stop());

  describe("SDK and raw HTTP produce identical bytes, built twice without sending", () => {
    // The API caches fee data for one block time (200 ms in the test config), not per block: a
    // build just after a block may still use the previous block's base fee. Once that has passed,
    // nothing is mined here, so every build sees the same fees.
    before(() => new Promise((r) => setTimeout(r, 300)));

    // Each pair: the SDK call, and the same operation as a hand-written HTTP request.
    const cases: [string, (l: Live) => Promise<PreparedTx>, (l: Live) => [string, string, unknown]][] = [
      [
        "vault.setMinter",
        (l) => l.client.vault.setMinter("c1", l.actors.alice.address, SP("5"), true, { from: l.actors.brand.address }),
        (l) => [
          "POST",
          "/studio/sdk/v1/tx/psp/configure-minter",
          {
            campaignId: "c1",
            minter: l.actors.alice.address,
            limit: SP("5"),
            active: true,
            from: l.actors.brand.address,
          },
        ],
      ],
      [
        "points.addToTransferWhitelist",
        (l) => l.client.points.addToTransferWhitelist(l.actors.bob.address, { from: l.actors.brand.address }),
        (l) => [
          "POST",
          "/studio/sdk/v1/tx/whitelist/transfer/add",
          { account: l.actors.bob.address, from: l.actors.brand.address },
        ],
      ],
      [
        "build.transfer",
        (l) =>
          l.client.build.transfer({ to: l.actors.alice.address, amount: SP("1") }, { from: l.actors.brand.address }),
        (l) => [
          "POST",
          "/api/v1/build/transfer",
          { input: { to: l.actors.alice.address, amount: SP("1") }, key: l.actors.brand.address },
        ],
      ],
      [
        "roles.grant",
        (l) =>
          l.client.roles.grant(
            { contract: "pspVault", role: "ISSUING_ADMIN_ROLE", account: l.actors.carol.address },
            { from: l.actors.brand.address },
          ),
        (l) => [
          "PUT",
          "/api/v1/roles/grant",
          {
            input: { contract: "pspVault", role: "ISSUING_ADMIN_ROLE", account: l.actors.carol.address },
            key: l.actors.brand.address,
          },
        ],
      ],
      [
        "redeem.create",
        (l) =>
          l.client.redeem.create(
            { chainId: "31337", factoryAddr: l.program.factory, assetAddr: l.usdc },
            { to: l.actors.brand.address, amount: SP("1"), expectedBasketMode: false },
            { from: l.actors.brand.address },
          ),
        (l) => [
          "POST",
          `/api/v1/build/evm/chain/31337/factory/${l.program.factory}/asset/${l.usdc}/redeem/create`,
          {
            input: { to: l.actors.brand.address, amount: SP("1"), expectedBasketMode: false },
            key: l.actors.brand.address,
          },
        ],
      ],
    ];
    for (const [name, viaSdk, viaHttp] of cases) {
      it(`${name}_buildsTheSameBytesAsRawHttp`, async () => {
        const sdk = await viaSdk(live);
        const [method, path, body] = viaHttp(live);
        const raw = await live.api.call(method, path, body, live.auth);
        assert.equal(raw.status, 200, JSON.stringify(raw.body));
        assert.equal(sdk.tx, raw.body.data.tx);
        // Every field of the API's data, and nothing else, is what the SDK hands back.
        assert.deepEqual(JSON.parse(JSON.stringify(sdk)), raw.body.data);
        assert.equal(sdk.transaction().unsignedSerialized, hexlify(decodeBase64(raw.body.data.tx)));
      });
    }
  });

  describe("send(signer)", () => {
    it("send_withAWallet_signsTheApisBytes_broadcasts_andTheChainChanges", async () => {
      const { brand, alice } = live.actors;
      const built = await live.client.factory.addToMintWhitelist(alice.address, { from: brand.address });
      const receipt = await built.send(brand);
      assert.equal(receipt.status, 1);
      const mined = (await live.node.provider.getTransaction(receipt.hash))!;
      const unsigned = built.transaction();
      assert.equal(mined.nonce, built.nonce);
      assert.equal(mined.data, built.data);
      assert.equal(mined.gasLimit, unsigned.gasLimit);
      assert.equal(mined.maxFeePerGas, unsigned.maxFeePerGas);
      assert.equal((await live.client.factory.whitelistStatus(alice.address)).mint, true);
    });

    it("send_withASignerThatCannotSignRaw_fallsBackToSendTransaction_withTheSameFields", async () => {
      const { brand, bob } = live.actors;
      // Hardhat's unlocked account: a JsonRpcSigner, which offers only eth_sendTransaction.
      const rpcSigner = await live.node.provider.getSigner(brand.address);
      const built = await live.client.points.addToTransferWhitelist(bob.address, { from: brand.address });
      const receipt = await built.send(rpcSigner);
      assert.equal(receipt.status, 1);
      const mined = (await live.node.provider.getTransaction(receipt.hash))!;
      const unsigned = built.transaction();
      assert.deepEqual(
        [mined.type, mined.to, mined.nonce, mined.data, mined.gasLimit, mined.maxFeePerGas, mined.chainId],
        [2, built.to, built.nonce, built.data, unsigned.gasLimit, unsigned.maxFeePerGas, 31337n],
      );
      assert.equal(await live.client.points.isTransferWhitelisted(bob.address), true);
    });

    it("send_withAnotherAccountsSigner_throwsWrongSigner_andSendsNothing", async () => {
      const { brand, alice, carol } = live.actors;
      const built = await live.client.factory.addToRedeemWhitelist(carol.address, { from: brand.address });
      await expectWrongSigner(live, () => built.send(alice), brand.address, alice.address);
      assert.equal((await live.client.factory.whitelistStatus(carol.address)).redeem, false);
    });

    it("send_whenTheMinedTransactionFails_throwsTxReverted", async () => {
      const { brand, carol, bob } = live.actors;
      await (
        await live.client.vault.setMinter("c1", carol.address, SP("5"), true, { from: brand.address })
      ).send(brand);
      await (
        await live.client.vault.updateTransferWhitelist("c1", bob.address, true, { from: brand.address })
      ).send(brand);
      const mint = await live.client.vault.mint("c1", bob.address, SP("1"), "", { from: carol.address });
      // The minter is revoked between build and send, so the mined transaction fails.
      await (await live.client.vault.setMinter("c1", carol.address, "0", false, { from: brand.address })).send(brand);
      await assert.rejects(mint.send(carol), (e: unknown) => {
        assert.ok(e instanceof PointsApiError, String(e));
        assert.equal(e.code, "TX_REVERTED");
        assert.equal(e.status, undefined);
        return true;
      });
      assert.equal((await live.client.vault.balanceOf("c1", bob.address)).balance, "0");
    });

    it("prerequisite_ofAWouldRevertForAnAllowance_isSendable_thenTheBuildSucceeds", async () => {
      const { brand, carol } = live.actors;
      await mintUsdc(live, carol.address, parseUnits("10", 6));
      await (await live.client.factory.addToMintWhitelist(carol.address, { from: brand.address })).send(brand);
      await (await live.client.points.addToTransferWhitelist(carol.address, { from: brand.address })).send(brand);
      const input = { asset: live.usdc, amount: parseUnits("10", 6).toString() };
      const err = await live.client.build.mint(input, { from: carol.address }).catch((e: unknown) => e);
      assert.ok(err instanceof PointsApiError);
      assert.equal(err.code, "WOULD_REVERT");
      assert.equal((err.details as { name: string }).name, "ERC20InsufficientAllowance");
      assert.ok(err.prerequisite);
      assert.deepEqual(err.prerequisite.call, {
        contract: "asset",
        function: "approve",
        args: [live.program.factory, input.amount],
      });
      await err.prerequisite.send(carol);
      await (await live.client.build.mint(input, { from: carol.address })).send(carol);
      assert.equal((await live.client.read.balance(carol.address)).balance, SP("10"));
    });
  });
});
