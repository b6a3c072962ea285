import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { keccak256, recoverAddress, SigningKey, toUtf8Bytes } from "ethers";
import { createService, loadConfig } from "../src/index.js";
import { crc32c } from "@points/signers";
import { ExecutorSigners } from "../src/core/signer/executors.js";
import { N, startFakeGcpKms, useFakeGcpCredentials, versionName, type FakeGcpKms } from "@points/testkit/signers";
import { captureLogs, CLOSED_PORT } from "./helpers/logs.js";

const CHAINS = JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT }]);
const TX = { nonce: 0, chainId: 31337, gasLimit: 21000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };

/** Hardhat's public dev account #3: its signatures below were recorded once (RFC 6979) and are fixed. */
const KNOWN_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const KNOWN_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
/** digest -> [the DER Cloud KMS answers (two with a high s), the Ethereum signature the seam must make of it]. */
const RECORDED: Record<string, [string, string]> = {
  d1ee8659f70d7aea41bfa6dc2769dc151792428c25e90cc7996a9282192f42e1: [
    "304502206453849ef66f214269d5ea1c5531b172a04dbab254b9343967aa3597f6bff068022100806b52bb3aede7b0deadf192b896e1854dff2912461b0c48168cb3f2b32e4963",
    "0x6453849ef66f214269d5ea1c5531b172a04dbab254b9343967aa3597f6bff0687f94ad44c512184f21520e6d47691e796cafb3d4692d93f3a945aa9a1d07f7de1c",
  ],
  "0000000000000000000000000000000000000000000000000000000000000001": [
    "3045022100d76bede86308b23c3bcf03b4257b092058dafaeb5a8cf9d9256cee4c48b2514c022041a1be56eb2c4a147256600fbc6898dea247d11f725d757a83fe3d1ea8f76c34",
    "0xd76bede86308b23c3bcf03b4257b092058dafaeb5a8cf9d9256cee4c48b2514c41a1be56eb2c4a147256600fbc6898dea247d11f725d757a83fe3d1ea8f76c341c",
  ],
  ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff: [
    "3045022012982686ca60c4e856363ddf9811d3ecbc756da6ed3d2dd2a61df89b4f2c7e44022100d38e3f7266f8f1ad27d97102ca745a60df5d5b24fc35fdaa920f4a24dfe8f4e1",
    "0x12982686ca60c4e856363ddf9811d3ecbc756da6ed3d2dd2a61df89b4f2c7e442c71c08d99070e52d8268efd358ba59ddb5181c1b312a2912dc31467f04d4c601b",
  ],
};

// The executor keys in Google Cloud KMS (packages/api/README.md#keys), through Google's SDK on its
// REST transport talking to a local stand-in of Cloud KMS's REST API (@points/testkit/signers, fakeGcpKms.ts),
// authenticated by Application Default Credentials (a service account key file made for the test):
// what KMS gets wrong stops the start, or the signature, with a named error, and nothing is signed
// or sent.
describe("signer: Google Cloud KMS (the SDK's REST transport against a local stand-in)", () => {
  let kms: FakeGcpKms;
  const config = (env: Record<string, string>, timeoutMs = "5000") =>
    loadConfig({ PORT: "0", DATA_DIR: "memory://", CHAINS, SIGNER_TIMEOUT_MS: timeoutMs, ...env });
  /** Starting with `ids` fails with `code` and `message`; KMS was asked for no signature unless `signs`. */
  const startFails = async (
    ids: string,
    code: string,
    message: RegExp,
    opts: { timeoutMs?: string; signs?: number } = {},
  ) => {
    const from = kms.requests.length;
    await assert.rejects(
      createService(config(kms.env(ids), opts.timeoutMs), { logger: captureLogs().logger("silent") }),
      (e: any) => {
        assert.equal(e.code, code, e.message);
        assert.match(e.message, message);
        assert.doesNotMatch(
          e.message,
          /iam\.gserviceaccount\.com/,
          "Google's message (the caller's account) stays in cause",
        );
        return true;
      },
    );
    const asked = kms.requests.slice(from);
    assert.equal(asked.filter((r) => r.op === "asymmetricSign").length, opts.signs ?? 0, "signatures asked for");
  };

  before(async () => {
    kms = await startFakeGcpKms({
      recorded: {
        algorithm: "EC_SIGN_SECP256K1_SHA256",
        privateKey: KNOWN_KEY,
        recorded: Object.fromEntries(Object.entries(RECORDED).map(([d, [der]]) => [d, der])),
      },
      "lane-2": { algorithm: "EC_SIGN_SECP256K1_SHA256" },
      p256: { algorithm: "EC_SIGN_P256_SHA256" },
      denied: { algorithm: "EC_SIGN_SECP256K1_SHA256", fault: "PERMISSION_DENIED" },
      disabled: { algorithm: "EC_SIGN_SECP256K1_SHA256", fault: "FAILED_PRECONDITION" },
      hung: { algorithm: "EC_SIGN_SECP256K1_SHA256", hang: true },
      mixedUp: { algorithm: "EC_SIGN_SECP256K1_SHA256", signWith: new SigningKey(randomBytes(32)) },
      badSignature: { algorithm: "EC_SIGN_SECP256K1_SHA256", corrupt: "signature" },
      badSignatureCrc: { algorithm: "EC_SIGN_SECP256K1_SHA256", corrupt: "signatureCrc32c" },
      digestUnverified: { algorithm: "EC_SIGN_SECP256K1_SHA256", corrupt: "verifiedDigestCrc32c" },
      badPem: { algorithm: "EC_SIGN_SECP256K1_SHA256", corrupt: "pemCrc32c" },
      later: { algorithm: "EC_SIGN_SECP256K1_SHA256" },
    });
    useFakeGcpCredentials(kms);
  });
  after(() => kms?.close());

  it("aKnownKey_opens_itsAddressComesFromThePem_andTheRecordedSignaturesComeOutExactly_highSMadeLow", async () => {
    const logs = captureLogs();
    const from = kms.requests.length;
    const signers = await ExecutorSigners.open(config(kms.env("recorded,lane-2")), logs.logger("info"));
    try {
      assert.deepEqual(signers.addresses(31337), [KNOWN_ADDRESS, kms.address("lane-2")]);
      assert.deepEqual(signers.addresses(8453), [KNOWN_ADDRESS, kms.address("lane-2")], "the same keys on every chain");
      const wallet = signers.wallet(31337, 0, null);
      for (const [digest, [der, want]] of Object.entries(RECORDED)) {
        const sig = await wallet.signDigest("0x" + digest);
        assert.equal(sig.serialized, want, digest);
        assert.equal(recoverAddress("0x" + digest, sig), KNOWN_ADDRESS);
        const answeredS = BigInt("0x" + der.slice(-64));
        assert.equal(BigInt(sig.s), answeredS > N / 2n ? N - answeredS : answeredS, "s made low");
      }
      const lane2 = signers.wallet(31337, 1, null);
      for (const digest of [keccak256(toUtf8Bytes("points")), "0x" + "ab".repeat(32), "0x" + "01".repeat(32)]) {
        const sig = await lane2.signDigest(digest);
        assert.ok(BigInt(sig.s) <= N / 2n, "low s");
        assert.equal(sig.serialized, kms.signingKey("lane-2").sign(digest).serialized);
      }
      assert.ok(kms.signatures.filter((s) => s.highS).length >= 2, "KMS answered high-s signatures");
      const asked = kms.requests.slice(from);
      assert.deepEqual(
        asked.filter((r) => r.op === "getPublicKey").map((r) => [r.method, r.name]),
        [
          ["GET", versionName("recorded")],
          ["GET", versionName("lane-2")],
        ],
        "GetPublicKey once per key version",
      );
      for (const r of asked) {
        assert.equal(r.claims?.iss, kms.clientEmail, "signed by the ADC service account");
        assert.match(String(r.claims?.scope), /https:\/\/www\.googleapis\.com\/auth\/cloudkms/);
      }
      const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === "executor keys are in Google Cloud KMS");
      assert.deepEqual(line.executors, [
        { key: `gcp-kms:${versionName("recorded")}`, address: KNOWN_ADDRESS },
        { key: `gcp-kms:${versionName("lane-2")}`, address: kms.address("lane-2") },
      ]);
      const secret = JSON.parse(readFileSync(kms.credentialsFile, "utf8")).private_key.split("\n")[1];
      assert.ok(!logs.lines.some((l) => l.includes(secret)), "the credentials are never logged");
    } finally {
      signers.close();
    }
  });

  it("theDigestsCrc32c_isSent_andIsGooglesCrc32c", () => {
    // The stand-in refuses a digest whose digestCrc32c does not match (as Cloud KMS does), so every
    // signature above carried the right one; the checksum itself is CRC32C's standard check value.
    assert.equal(crc32c(new TextEncoder().encode("123456789")), 0xe3069283);
    assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
  });

  it("aP256Key_isSIGNER_KEY_CURVE_sayingHowToCreateTheRightKey", () =>
    startFails(
      "recorded,p256",
      "SIGNER_KEY_CURVE",
      new RegExp(
        `^Google Cloud KMS key version "${versionName("p256")}" is EC_SIGN_P256_SHA256, not EC_SIGN_SECP256K1_SHA256; Ethereum needs secp256k1: create the key with gcloud kms keys create KEY --keyring RING --location LOCATION --purpose asymmetric-signing --default-algorithm ec-sign-secp256k1-sha256 --protection-level hsm$`,
      ),
    ));

  it("aSignatureCorruptedOnTheWay_failsItsCrc32c_isSIGNER_INTEGRITY_andIsNotUsed", async () => {
    const bad = (id: string) =>
      new RegExp(
        `^signing with Google Cloud KMS key version "${versionName(id)}": the signature failed its integrity check \\(name or signatureCrc32c does not match\\)`,
      );
    // At start: the probe signature is refused, so the service does not start.
    await startFails("badSignature", "SIGNER_INTEGRITY", bad("badSignature"), { signs: 1 });
    await startFails("badSignatureCrc", "SIGNER_INTEGRITY", bad("badSignatureCrc"), { signs: 1 });
  });

  it("aDigestKmsDidNotVerify_isSIGNER_INTEGRITY", () =>
    startFails(
      "digestUnverified",
      "SIGNER_INTEGRITY",
      /^signing with Google Cloud KMS key version ".+\/digestUnverified\/.+": KMS did not verify the digest's CRC32C \(verifiedDigestCrc32c false\): the request was corrupted on the way; the signature is not used$/,
      { signs: 1 },
    ));

  it("aPublicKeyCorruptedOnTheWay_isSIGNER_INTEGRITY_andNothingIsSigned", () =>
    startFails(
      "badPem",
      "SIGNER_INTEGRITY",
      /^reading Google Cloud KMS key version ".+\/badPem\/cryptoKeyVersions\/1": the public key failed its integrity check/,
    ));

  it("aKmsThatNeverAnswers_isSIGNER_TIMEOUT_withinSIGNER_TIMEOUT_MS", () =>
    startFails(
      "hung",
      "SIGNER_TIMEOUT",
      /^reading Google Cloud KMS key version ".+\/hung\/.+": no answer within 300 ms$/,
      {
        timeoutMs: "300",
      },
    ));

  it("aKmsThatSignsWithAnotherKey_isSIGNER_ADDRESS_MISMATCH", () =>
    startFails("mixedUp", "SIGNER_ADDRESS_MISMATCH", /does not recover to the executor .*nothing was sent$/, {
      signs: 1,
    }));

  it("PERMISSION_DENIED_isSIGNER_LOGIN_FAILED_GooglesMessageKeptAsCause", async () => {
    await startFails(
      "denied",
      "SIGNER_LOGIN_FAILED",
      /^reading Google Cloud KMS key version ".+": Google refused the credentials or their permission \(PERMISSION_DENIED\)/,
    );
    const e: any = await createService(config(kms.env("denied")), { logger: captureLogs().logger("silent") }).catch(
      (x) => x,
    );
    assert.match(e.cause.message, /executor@points-test\.iam\.gserviceaccount\.com/);
  });

  it("NOT_FOUND_isSIGNER_KEY_NOT_FOUND_andFAILED_PRECONDITION_isSIGNER_KEY_DISABLED", async () => {
    await startFails(
      "recorded,nobody",
      "SIGNER_KEY_NOT_FOUND",
      /^reading Google Cloud KMS key version ".+\/nobody\/.+": Google Cloud KMS has no key version ".+" \(NOT_FOUND\): check GCP_KMS_KEY_VERSIONS$/,
    );
    await startFails("disabled", "SIGNER_KEY_DISABLED", /: the key version cannot sign now \(FAILED_PRECONDITION: /);
  });

  it("aKeyDisabledCorruptedOrStalledAfterStart_failsTheSignature_named_andNoTransactionComesOut", async () => {
    const signers = await ExecutorSigners.open(config(kms.env("later"), "3000"), captureLogs().logger("silent"));
    try {
      const wallet = signers.wallet(31337, 0, null);
      const tx = { ...TX, to: wallet.address };
      assert.ok((await wallet.signTransaction(tx)).startsWith("0x02"));
      for (const [change, code] of [
        [{ fault: "FAILED_PRECONDITION" }, "SIGNER_KEY_DISABLED"],
        [{ fault: undefined, corrupt: "signature" }, "SIGNER_INTEGRITY"],
        [{ corrupt: undefined, signWith: new SigningKey(randomBytes(32)) }, "SIGNER_ADDRESS_MISMATCH"],
        [{ signWith: undefined, hang: true }, "SIGNER_TIMEOUT"],
      ] as const) {
        kms.set("later", change);
        await assert.rejects(wallet.signTransaction(tx), (e: any) => e.code === code, code);
      }
    } finally {
      signers.close();
    }
  });
});
