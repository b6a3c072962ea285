import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import { createWalletClient, http, type Hex } from "viem";
import { privateKeyToAccount, toAccount } from "viem/accounts";
import { PointsApiError } from "../src/index.js";
import { viemSigner } from "../src/viem.js";
import { createCampaign, expectWrongSigner, seedBrand, startLive, type Live } from "./helpers/live.js";

// send(viemSigner(walletClient)): viem's signing and transport, real broadcasting on a Hardhat node.
describe("send with a viem wallet client", () => {
  let live: Live;
  before(async () => {
    live = await startLive();
  });
  after(() => live?.stop());

  const localWallet = (privateKey: string) =>
    viemSigner(createWalletClient({ account: privateKeyToAccount(privateKey as Hex), transport: http(live.node.url) }));

  it("localAccount_signsTheApisBytes_broadcastsThroughItsTransport_andTheChainChanges", async () => {
    const { brand, alice } = live.actors;
    const built = await live.client.factory.addToMintWhitelist(alice.address, { from: brand.address });
    const receipt = await built.send(localWallet(brand.privateKey));
    assert.equal(receipt.status, 1);
    const mined = (await live.node.provider.getTransaction(receipt.hash))!;
    const unsigned = built.transaction();
    assert.equal(mined.from, brand.address);
    assert.deepEqual(
      [mined.type, mined.to, mined.nonce, mined.data, mined.gasLimit, mined.maxFeePerGas, mined.chainId],
      [2, built.to, built.nonce, built.data, unsigned.gasLimit, unsigned.maxFeePerGas, 31337n],
    );
    assert.equal((await live.client.factory.whitelistStatus(alice.address)).mint, true);
  });

  it("localAccount_sendingATransactionAlreadyMined_returnsItsReceipt", async () => {
    const { brand, bob } = live.actors;
    const built = await live.client.factory.addToRedeemWhitelist(bob.address, { from: brand.address });
    const wallet = localWallet(brand.privateKey);
    const first = await built.send(wallet);
    const again = await built.send(wallet);
    assert.equal(again.hash, first.hash);
    assert.equal(again.blockNumber, first.blockNumber);
    assert.equal(await live.node.provider.getTransactionCount(brand.address), built.nonce + 1);
  });

  it("jsonRpcAccount_sendsTheSameFieldsWithEthSendTransaction", async () => {
    const { brand, carol } = live.actors;
    // Hardhat's unlocked account: viem sends eth_sendTransaction, the node signs.
    const wallet = viemSigner(createWalletClient({ account: brand.address as Hex, transport: http(live.node.url) }));
    const built = await live.client.points.addToTransferWhitelist(carol.address, { from: brand.address });
    const receipt = await built.send(wallet);
    assert.equal(receipt.status, 1);
    const mined = (await live.node.provider.getTransaction(receipt.hash))!;
    assert.deepEqual(
      [mined.type, mined.from, mined.to, mined.nonce, mined.data, mined.gasLimit],
      [2, brand.address, built.to, built.nonce, built.data, built.transaction().gasLimit],
    );
    assert.equal(await live.client.points.isTransferWhitelisted(carol.address), true);
  });

  it("issuer_withAViemSigner_issuesAnOrderTwiceAskedOnce", async () => {
    const { brand, alice } = live.actors;
    await seedBrand(live, parseUnits("10", 6));
    const signer = localWallet(brand.privateKey);
    await createCampaign(live, "viem-orders", 10n ** 18n, signer);
    const order = { orderRef: "VIEM-1", campaignId: "viem-orders", to: alice.address, amount: 7n };
    const issuer = live.client.issuer(signer, { salt: "viem-test-salt-0123" });
    const [first, again] = await Promise.all([issuer.issue(order), issuer.issue(order)]);
    const retried = await issuer.issue(order);
    assert.equal(first.receipt.status, 1);
    assert.deepEqual([again.receipt.hash, retried.receipt.hash], [first.receipt.hash, first.receipt.hash]);
    assert.equal((await live.client.vault.balanceOf("viem-orders", alice.address)).balance, "7");
  });

  it("aWalletThatRefusesToSign_isWrongSignerWithItsReason_andNothingIsSent", async () => {
    const { brand, bob } = live.actors;
    const key = privateKeyToAccount(brand.privateKey as Hex);
    const refusing = toAccount({
      address: key.address,
      signMessage: key.signMessage,
      signTypedData: key.signTypedData,
      signTransaction: async () => {
        throw new Error("user rejected the request");
      },
    });
    const signer = viemSigner(createWalletClient({ account: refusing, transport: http(live.node.url) }));
    const built = await live.client.points.addToTransferWhitelist(bob.address, { from: brand.address });
    const before = await live.node.provider.getTransactionCount(brand.address);
    await assert.rejects(built.send(signer), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.deepEqual(
        [e.code, e.message, e.details],
        ["WRONG_SIGNER", "the signer did not sign: user rejected the request", { reason: "user rejected the request" }],
      );
      return true;
    });
    assert.equal(await live.node.provider.getTransactionCount(brand.address), before);
    assert.equal(await live.client.points.isTransferWhitelisted(bob.address), false);
  });

  it("anotherAccountsWallet_throwsWrongSigner_andSendsNothing", async () => {
    const { brand, alice, outsider } = live.actors;
    const built = await live.client.factory.addToMintWhitelist(outsider.address, { from: brand.address });
    await expectWrongSigner(live, () => built.send(localWallet(alice.privateKey)), brand.address, alice.address);
    assert.equal((await live.client.factory.whitelistStatus(outsider.address)).mint, false);
  });
});
