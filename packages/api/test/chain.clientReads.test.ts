import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { getAddress, isCallException } from "ethers";
import { NODE_KINDS, startNode, type DevNode } from "@points/testkit";
import { loadConfig } from "../src/index.js";
import { checksummed } from "../src/core/chain/address.js";
import { ChainClient } from "../src/core/chain/client.js";

// Init code of a contract whose every call reverts with the four bytes 0xdeadbeef.
const REVERTER_INIT = "0x6010600c60003960106000f3" + "63deadbeef60e01b60005260046000fd";

/** What a build asks the node as is gives what ethers' provider gives: values, and errors field by field. */
for (const kind of NODE_KINDS) {
  describe(`chain client reads (${kind})`, () => {
    let node: DevNode;
    let client: ChainClient;
    let reverter: string;
    before(async () => {
      node = await startNode({ kind });
      const config = loadConfig({
        CHAINS: JSON.stringify([{ chainId: 31337, name: "dev", rpcUrl: node.url, explorerUrl: "https://x.example" }]),
      });
      client = new ChainClient(config.chains[0]!, 10_000);
      const deployed = await (await node.wallets[0]!.sendTransaction({ data: REVERTER_INIT })).wait();
      reverter = deployed!.contractAddress!;
    });
    after(async () => {
      client?.destroy();
      await node?.stop();
    });

    it("nonce_isTheProvidersTransactionCount_pendingAndLatest", async () => {
      const from = node.wallets[1]!.address;
      await node.provider.send("evm_setAutomine", [false]);
      try {
        await node.wallets[1]!.sendTransaction({ to: node.wallets[2]!.address, value: 1n });
        assert.equal(await client.nonce(from, "pending"), await node.provider.getTransactionCount(from, "pending"));
        assert.equal(await client.nonce(from, "latest"), await node.provider.getTransactionCount(from, "latest"));
        assert.equal((await client.nonce(from, "pending")) - (await client.nonce(from, "latest")), 1);
      } finally {
        await node.provider.send("evm_setAutomine", [true]);
        await node.provider.send("evm_mine", []);
      }
    });

    it("estimateGas_isTheProvidersEstimate_forChecksummedAndLowercaseAddresses", async () => {
      const tx = { from: node.wallets[0]!.address, to: node.wallets[3]!.address, data: "0x" };
      const theirs = await node.provider.estimateGas(tx);
      assert.equal(await client.estimateGas(tx), theirs);
      assert.equal(await client.estimateGas({ ...tx, from: tx.from.toLowerCase(), to: tx.to.toLowerCase() }), theirs);
    });

    it("estimateGas_revertsAsTheProvidersCallException_withTheRevertData", async () => {
      const tx = { from: node.wallets[0]!.address, to: reverter, data: "0x12345678" };
      const theirs = await node.provider.estimateGas(tx).then(
        () => assert.fail("the provider's estimate should revert"),
        (e: unknown) => e,
      );
      const ours = await client.estimateGas(tx).then(
        () => assert.fail("the client's estimate should revert"),
        (e: unknown) => e,
      );
      assert.ok(isCallException(theirs) && isCallException(ours));
      assert.equal(ours.data, "0xdeadbeef");
      assert.deepEqual(
        { code: ours.code, action: ours.action, data: ours.data, reason: ours.reason, revert: ours.revert },
        { code: theirs.code, action: theirs.action, data: theirs.data, reason: theirs.reason, revert: theirs.revert },
      );
      assert.equal(ours.shortMessage, theirs.shortMessage);
    });
  });
}

describe("checksummed addresses", () => {
  const lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
  it("checksummed_isGetAddress_forEveryCase", () => {
    for (const a of [lower, lower.toUpperCase().replace("0X", "0x"), getAddress(lower)])
      assert.equal(checksummed(a), "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
  });

  it("checksummed_refusesWhatGetAddressRefuses_everyTime", () => {
    const wrongChecksum = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    for (const bad of [wrongChecksum, "0x1234", "not an address"]) {
      for (let i = 0; i < 2; i++) {
        assert.throws(
          () => checksummed(bad),
          (e: Error) => {
            assert.throws(() => getAddress(bad), { message: e.message });
            return true;
          },
        );
      }
    }
  });

  it("checksummed_staysRight_pastItsBound", () => {
    for (let i = 0; i < 10_050; i++) {
      const a = `0x${i.toString(16).padStart(40, "0")}`;
      assert.equal(checksummed(a), getAddress(a));
    }
    assert.equal(checksummed(lower), getAddress(lower));
  });
});
