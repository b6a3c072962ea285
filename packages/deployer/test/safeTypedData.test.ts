/**
 * The Safe signing data the deployer prints is signed as is by a wallet:
 * `@metamask/eth-sig-util` (what MetaMask runs for eth_signTypedData_v4) hashes it to the Safe
 * v1.4.1 contract's own transaction hash, its signatures recover to the owners, and a real
 * 2-of-3 Safe executes the transaction with them.
 */
import assert from "node:assert/strict";
import { recoverTypedSignature, signTypedData, SignTypedDataVersion, TypedDataUtils } from "@metamask/eth-sig-util";
import { Contract, getBytes, hexlify } from "ethers";
import {
  devSafe,
  devWallet,
  execTransaction,
  packSignatures,
  safeInterface,
  startNode,
  type DevNode,
} from "@points/testkit";
import { isDeployerError, safeTransaction, transactionServiceProposal } from "../src/index.js";

describe("Safe typed data: wallet-signable as printed (eth_signTypedData_v4)", () => {
  let node: DevNode;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  before(async () => {
    node = await startNode();
    safe = await devSafe(node.provider);
  });
  after(async () => node?.stop());

  it("ethSigUtilV4_hashesToTheSafesHash_recoversToTheOwners_andTheSafeExecutesIt", async () => {
    const data = safeInterface.encodeFunctionData("changeThreshold", [1]);
    const t = await safeTransaction(node.provider, safe.address, [{ to: safe.address, data }]);
    // Exactly what a wallet receives: the printed JSON, parsed back.
    const typed = JSON.parse(JSON.stringify(t.typedData));
    const walletHash = hexlify(TypedDataUtils.eip712Hash(typed, SignTypedDataVersion.V4));
    const s = new Contract(safe.address, safeInterface, node.provider);
    const tx = t.tx;
    const onChain = await s.getFunction("getTransactionHash")(
      tx.to,
      tx.value,
      tx.data,
      tx.operation,
      tx.safeTxGas,
      tx.baseGas,
      tx.gasPrice,
      tx.gasToken,
      tx.refundReceiver,
      tx.nonce,
    );
    assert.equal(walletHash, onChain, "the wallet's EIP-712 hash is the Safe contract's transaction hash");
    assert.equal(t.safeTxHash, onChain);

    const sigs = safe.owners.slice(0, 2).map((o) => {
      const signature = signTypedData({
        privateKey: Buffer.from(getBytes(o.privateKey)),
        data: typed,
        version: SignTypedDataVersion.V4,
      });
      const recovered = recoverTypedSignature({ data: typed, signature, version: SignTypedDataVersion.V4 });
      assert.equal(recovered.toLowerCase(), o.address.toLowerCase(), "the signature recovers to the owner");
      return { owner: o.address, signature };
    });
    const receipt = await execTransaction(devWallet(9, node.provider), safe.address, tx, packSignatures(sigs));
    assert.equal(receipt.status, 1);
    assert.equal(await s.getFunction("getThreshold")(), 1n, "the Safe ran the signed transaction");
  });

  it("transactionServiceProposal_isApiKitsRequest_signedByAnOwner_aStrangerIsRefused", async () => {
    const data = safeInterface.encodeFunctionData("changeThreshold", [2]);
    const t = await safeTransaction(node.provider, safe.address, [{ to: safe.address, data }]);
    const owner = safe.owners[0]!;
    const signature = signTypedData({
      privateKey: Buffer.from(getBytes(owner.privateKey)),
      data: JSON.parse(JSON.stringify(t.typedData)),
      version: SignTypedDataVersion.V4,
    });
    const p = transactionServiceProposal(t, owner.address.toLowerCase(), signature);
    assert.equal(p.path, `/v1/safes/${safe.address}/multisig-transactions/`);
    assert.deepEqual(p.body, {
      to: t.tx.to,
      value: t.tx.value,
      data: t.tx.data,
      operation: t.tx.operation,
      safeTxGas: "0",
      baseGas: "0",
      gasPrice: "0",
      gasToken: "0x0000000000000000000000000000000000000000",
      refundReceiver: "0x0000000000000000000000000000000000000000",
      nonce: t.tx.nonce,
      contractTransactionHash: t.safeTxHash,
      sender: owner.address,
      signature,
      origin: "points-deployer",
    });
    assert.throws(
      () => transactionServiceProposal(t, devWallet(9).address, signature),
      (e: unknown) => isDeployerError(e, "INVALID_CONFIG") && /is not an owner of the Safe/.test((e as Error).message),
    );
  });
});
