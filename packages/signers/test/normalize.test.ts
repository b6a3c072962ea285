import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { getBytes, keccak256, Transaction, Wallet, toUtf8Bytes } from "ethers";
import { finishSignature, type DigestSigner } from "../src/signer.js";
import { localSigner } from "../src/local.js";
import { ExecutorWallet } from "../src/wallet.js";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const OTHER = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const digest = getBytes(keccak256(toUtf8Bytes("points")));

// The signing seam (packages/signers/README.md): backends give r || s; the service makes it low-s,
// finds the recovery id and refuses a signature that does not recover to the executor.
describe("signer: every signature is normalized and checked before it is used", () => {
  it("aHighS_fromABackend_isMadeLowS_andRecoversToTheExecutor", async () => {
    const local = localSigner(KEY);
    const raw = await local.signDigest(digest);
    const s = BigInt("0x" + Buffer.from(raw.subarray(32)).toString("hex"));
    const high = Buffer.concat([raw.subarray(0, 32), Buffer.from((N - s).toString(16).padStart(64, "0"), "hex")]);
    const sig = finishSignature(digest, high, local.address);
    assert.equal(BigInt(sig.s), s);
    assert.ok(BigInt(sig.s) <= N / 2n);
    assert.equal(sig.serialized, new Wallet(KEY).signingKey.sign(digest).serialized);
  });

  it("aSignatureByAnotherKey_isSIGNER_ADDRESS_MISMATCH_andNoTransactionComesOut", async () => {
    const liar: DigestSigner = {
      address: new Wallet(KEY).address,
      describe: "test",
      signDigest: localSigner(OTHER).signDigest,
    };
    const wallet = new ExecutorWallet(liar, 1000);
    await assert.rejects(
      wallet.signTransaction({
        to: liar.address,
        nonce: 0,
        chainId: 31337,
        gasLimit: 21000,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      }),
      (e: any) => e.code === "SIGNER_ADDRESS_MISMATCH" && /does not recover to the executor/.test(e.message),
    );
  });

  it("aTransaction_signedThroughTheSeam_isByteForByteWhatEthersSigns", async () => {
    const req = {
      to: new Wallet(OTHER).address,
      nonce: 7,
      chainId: 31337,
      gasLimit: 21000,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      type: 2,
      value: 5n,
    };
    const raw = await new ExecutorWallet(localSigner(KEY), 1000).signTransaction(req);
    assert.equal(raw, await new Wallet(KEY).signTransaction(req));
    assert.equal(Transaction.from(raw).from, new Wallet(KEY).address);
  });

  it("aTransactionObject_asEthersSendTransactionPassesIt_keepsEveryField", async () => {
    // AbstractSigner.sendTransaction signs a Transaction instance, not a plain request.
    const tx = Transaction.from({
      to: new Wallet(OTHER).address,
      nonce: 7,
      chainId: 31337,
      gasLimit: 21000,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      type: 2,
      data: "0x1234",
    });
    const raw = await new ExecutorWallet(localSigner(KEY), 1000).signTransaction(tx);
    assert.equal(raw, await new Wallet(KEY).signTransaction(tx));
    const signed = Transaction.from(raw);
    assert.equal(signed.chainId, 31337n);
    assert.equal(signed.nonce, 7);
    assert.equal(signed.data, "0x1234");
  });

  it("aBackendThatNeverAnswers_isSIGNER_TIMEOUT", async () => {
    const hung: DigestSigner = {
      address: new Wallet(KEY).address,
      describe: "test",
      signDigest: () => new Promise(() => {}),
    };
    await assert.rejects(new ExecutorWallet(hung, 100).signMessage("x"), (e: any) => e.code === "SIGNER_TIMEOUT");
  });
});
