import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, randomBytes, sign, verify } from "node:crypto";
import { getBytes, keccak256, recoverAddress, SigningKey, toUtf8Bytes, Wallet } from "ethers";
import { createService, loadConfig } from "../src/index.js";
import { derSignatureToRs } from "@points/signers";
import { ExecutorSigners } from "../src/core/signer/executors.js";
import {
  derSignature,
  FAKE_ACCESS_KEY_ID,
  FAKE_SECRET_ACCESS_KEY,
  N,
  startFakeKms,
  useFakeAwsCredentials,
  type FakeKms,
} from "@points/testkit/signers";
import { captureLogs, CLOSED_PORT } from "./helpers/logs.js";

const CHAINS = JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT }]);
const TX = { nonce: 0, chainId: 31337, gasLimit: 21000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };

// The executor keys in AWS KMS (packages/api/README.md#keys), through the real AWS SDK client
// talking to a local fake of KMS's AWS JSON 1.1 API (@points/testkit/signers, fakeAwsKms.ts) with dummy static
// credentials: what KMS gets wrong stops the start with a named error and signs nothing.
describe("signer: AWS KMS (the AWS SDK against a local KMS fake)", () => {
  let kms: FakeKms;
  const config = (env: Record<string, string>, timeoutMs = "5000") =>
    loadConfig({ PORT: "0", DATA_DIR: "memory://", CHAINS, SIGNER_TIMEOUT_MS: timeoutMs, ...env });
  /**
   * Starting with `ids` fails with `code`; KMS was asked no signature (nothing was signed or sent). When the bound is
   * the point (`timeoutMs`), the request may be cancelled before it reaches the fake on a busy machine: then
   * only "no signature" is checked.
   */
  const startFails = async (ids: string, code: string, message: RegExp, timeoutMs?: string) => {
    const from = kms.requests.length;
    await assert.rejects(
      createService(config(kms.env(ids), timeoutMs), { logger: captureLogs().logger("silent") }),
      (e: any) => {
        assert.equal(e.code, code, e.message);
        assert.match(e.message, message);
        assert.doesNotMatch(
          e.message,
          /111122223333|arn:aws:iam/,
          "AWS's message (the caller's account) stays in cause",
        );
        return true;
      },
    );
    const asked = kms.requests.slice(from);
    if (timeoutMs === undefined) assert.ok(asked.length > 0, "KMS was asked");
    assert.deepEqual(
      asked.filter((r) => r.target !== "TrentService.GetPublicKey"),
      [],
      "nothing but GetPublicKey",
    );
  };

  before(async () => {
    useFakeAwsCredentials();
    kms = await startFakeKms({
      executor: { keySpec: "ECC_SECG_P256K1" },
      "alias/lane-2": { keySpec: "ECC_SECG_P256K1" },
      p256: { keySpec: "ECC_NIST_P256" },
      agreement: { keySpec: "ECC_SECG_P256K1", keyUsage: "KEY_AGREEMENT" },
      denied: { keySpec: "ECC_SECG_P256K1", fault: "AccessDeniedException" },
      disabled: { keySpec: "ECC_SECG_P256K1", fault: "DisabledException" },
      throttled: { keySpec: "ECC_SECG_P256K1", fault: "ThrottlingException" },
      hung: { keySpec: "ECC_SECG_P256K1", hang: true },
      mixedUp: { keySpec: "ECC_SECG_P256K1", signWith: new SigningKey(randomBytes(32)) },
      later: { keySpec: "ECC_SECG_P256K1" },
      "alias/executor-again": { keySpec: "ECC_SECG_P256K1", aliasOf: "executor" },
    });
  });
  after(() => kms?.close());

  it("keysInKms_open_theirAddressesComeFromGetPublicKey_andTheirSignaturesRecover_highSMadeLow", async () => {
    const logs = captureLogs();
    const from = kms.requests.length;
    const signers = await ExecutorSigners.open(config(kms.env("executor,alias/lane-2")), logs.logger("info"));
    try {
      const want = [kms.address("executor"), kms.address("alias/lane-2")];
      assert.deepEqual(signers.addresses(31337), want);
      // The same keys on every chain: KMS's keys are not per chain.
      assert.deepEqual(signers.addresses(8453), want);
      const digests = [keccak256(toUtf8Bytes("points")), "0x" + "00".repeat(31) + "01", "0x" + "ff".repeat(32)];
      for (const digest of digests)
        for (const [lane, id] of ["executor", "alias/lane-2"].entries()) {
          const sig = await signers.wallet(31337, lane, null).signDigest(digest);
          assert.equal(recoverAddress(getBytes(digest), sig), want[lane]);
          assert.ok(BigInt(sig.s) <= N / 2n, "low s");
          // RFC 6979: the very signature the key itself makes, whichever s KMS answered.
          assert.equal(sig.serialized, kms.signingKey(id).sign(digest).serialized);
        }
      assert.ok(kms.signatures.filter((s) => s.highS).length >= 3, "KMS answered high-s signatures");
      const asked = kms.requests.slice(from);
      assert.deepEqual(
        asked.filter((r) => r.target === "TrentService.GetPublicKey").map((r) => r.keyId),
        ["executor", "alias/lane-2"],
        "GetPublicKey once per key",
      );
      for (const r of asked) {
        assert.match(
          r.authorization,
          new RegExp(`^AWS4-HMAC-SHA256 Credential=${FAKE_ACCESS_KEY_ID}/\\d{8}/eu-west-1/kms/aws4_request`),
        );
        assert.ok(!r.authorization.includes(FAKE_SECRET_ACCESS_KEY));
      }
      const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === "executor keys are in AWS KMS");
      assert.deepEqual(line.executors, [
        { key: "aws-kms:executor", address: want[0] },
        { key: "aws-kms:alias/lane-2", address: want[1] },
      ]);
      assert.ok(
        !logs.lines.some((l) => l.includes(FAKE_SECRET_ACCESS_KEY) || l.includes(FAKE_ACCESS_KEY_ID)),
        "the credentials are never logged",
      );
    } finally {
      signers.close();
    }
  });

  it("aP256Key_ECC_NIST_P256_isSIGNER_KEY_CURVE", () =>
    startFails(
      "executor,p256",
      "SIGNER_KEY_CURVE",
      /^AWS KMS key "p256" is ECC_NIST_P256, not ECC_SECG_P256K1 \(secp256k1\); Ethereum needs secp256k1/,
    ));

  it("anAliasAndItsKey_listedAsTwoLanes_isSIGNER_KEY_DUPLICATE", () =>
    startFails(
      "executor,alias/executor-again",
      "SIGNER_KEY_DUPLICATE",
      /^aws-kms:executor and aws-kms:alias\/executor-again are the same key \(0x[0-9a-fA-F]{40}\): each nonce lane needs its own key/,
    ));

  it("aKeyNotForSigning_KEY_AGREEMENT_isSIGNER_KEY_CURVE", () =>
    startFails("agreement", "SIGNER_KEY_CURVE", /^AWS KMS key "agreement" is for KEY_AGREEMENT, not SIGN_VERIFY/));

  it("AccessDeniedException_isSIGNER_LOGIN_FAILED_AWSsMessageKeptAsCause", async () => {
    await startFails(
      "denied",
      "SIGNER_LOGIN_FAILED",
      /^reading AWS KMS key "denied": AWS refused the credentials or their permission \(AccessDeniedException\)/,
    );
    const e: any = await createService(config(kms.env("denied")), { logger: captureLogs().logger("silent") }).catch(
      (x) => x,
    );
    assert.equal(e.cause.name, "AccessDeniedException");
    assert.match(e.cause.message, /is not authorized to perform: kms:GetPublicKey/);
  });

  it("NotFoundException_isSIGNER_KEY_NOT_FOUND", () =>
    startFails(
      "executor,nobody",
      "SIGNER_KEY_NOT_FOUND",
      /^reading AWS KMS key "nobody": AWS KMS has no key "nobody" in this region \(NotFoundException\): check AWS_KMS_KEY_IDS and AWS_REGION/,
    ));

  it("DisabledException_isSIGNER_KEY_DISABLED", () =>
    startFails(
      "disabled",
      "SIGNER_KEY_DISABLED",
      /^reading AWS KMS key "disabled": the key cannot sign now \(DisabledException: /,
    ));

  it("ThrottlingException_afterTheSDKsRetries_isSIGNER_UNAVAILABLE", async () => {
    const from = kms.requests.length;
    await startFails(
      "throttled",
      "SIGNER_UNAVAILABLE",
      /^reading AWS KMS key "throttled": AWS KMS throttled the request \(ThrottlingException\) after the SDK's retries/,
      "10000",
    );
    assert.equal(kms.requests.length - from, 3, "the SDK tried three times");
  });

  it("aKmsThatNeverAnswers_isSIGNER_TIMEOUT_withinSIGNER_TIMEOUT_MS", () =>
    startFails("hung", "SIGNER_TIMEOUT", /^reading AWS KMS key "hung": no answer within 300 ms$/, "300"));

  it("aKmsThatSignsWithAnotherKey_isSIGNER_ADDRESS_MISMATCH_atStart", async () => {
    await assert.rejects(
      createService(config(kms.env("mixedUp")), { logger: captureLogs().logger("silent") }),
      (e: any) => e.code === "SIGNER_ADDRESS_MISMATCH" && /does not recover to the executor/.test(e.message),
    );
  });

  it("aKeyDisabledOrStalledAfterStart_failsTheSignature_named_andNoTransactionComesOut", async () => {
    // A bound the signatures that must succeed keep on a loaded machine; the stalled one then waits it out.
    const signers = await ExecutorSigners.open(config(kms.env("later"), "3000"), captureLogs().logger("silent"));
    try {
      const wallet = signers.wallet(31337, 0, null);
      const tx = { ...TX, to: wallet.address };
      assert.equal((await wallet.signTransaction(tx)).length > 0, true);
      kms.set("later", { fault: "DisabledException" });
      await assert.rejects(wallet.signTransaction(tx), (e: any) => e.code === "SIGNER_KEY_DISABLED");
      kms.set("later", { fault: undefined, hang: true });
      await assert.rejects(
        wallet.signTransaction(tx),
        (e: any) => e.code === "SIGNER_TIMEOUT" && /no answer within 3000 ms/.test(e.message),
      );
    } finally {
      signers.close();
    }
  });
});

// KMS answers DER; the seam takes r || s (packages/signers/src/awsKms.ts).
describe("signer: AWS KMS's DER signatures", () => {
  it("derSignatures_fromOpenSSL_becomeTheRAndSItVerifies", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "secp256k1" });
    let short = 0;
    for (let i = 0; i < 300; i++) {
      const data = randomBytes(40);
      const der = sign("sha256", data, { key: privateKey, dsaEncoding: "der" });
      if (der.length < 71) short++;
      const rs = derSignatureToRs(der);
      assert.equal(rs.length, 64);
      assert.ok(verify("sha256", data, { key: publicKey, dsaEncoding: "ieee-p1363" }, rs), der.toString("hex"));
    }
    assert.ok(short > 0, "some r or s had fewer than 32 bytes");
  });

  it("smallAndHighValues_roundTrip", () => {
    for (const [r, s] of [
      [1n, 1n],
      [0x80n, N - 1n],
      [2n ** 255n, 2n ** 248n - 1n],
    ] as const) {
      const rs = derSignatureToRs(derSignature(r, s));
      assert.equal(BigInt("0x" + Buffer.from(rs.subarray(0, 32)).toString("hex")), r);
      assert.equal(BigInt("0x" + Buffer.from(rs.subarray(32)).toString("hex")), s);
    }
  });

  it("malformedDer_isSIGNER_ADDRESS_MISMATCH", () => {
    const good = derSignature(2n ** 255n + 5n, 12345n);
    const cases: [string, Buffer][] = [
      ["bytes after", Buffer.concat([good, Buffer.from([0])])],
      ["not a SEQUENCE", Buffer.concat([Buffer.from([0x31]), good.subarray(1)])],
      ["long-form length", Buffer.concat([Buffer.from([0x30, 0x81, good.length - 2]), good.subarray(2)])],
      ["negative r", Buffer.from("3006020180020101", "hex")],
      ["non-minimal r", Buffer.from("300702020001020101", "hex")],
      ["r of 33 bytes", derLike("02" + "21" + "01" + "00".repeat(32), "020101")],
      ["empty r", Buffer.from("3006020002020101", "hex")],
      ["one INTEGER", Buffer.from("3003020101", "hex")],
      ["empty", Buffer.alloc(0)],
    ];
    for (const [why, der] of cases)
      assert.throws(
        () => derSignatureToRs(der),
        (e: any) => e.code === "SIGNER_ADDRESS_MISMATCH" && /not DER ECDSA/.test(e.message),
        why,
      );
  });

  it("theLocalWallet_andTheFakesDer_agree", () => {
    const w = Wallet.createRandom();
    const digest = keccak256(toUtf8Bytes("der"));
    const sig = w.signingKey.sign(digest);
    const rs = derSignatureToRs(derSignature(BigInt(sig.r), BigInt(sig.s)));
    assert.equal("0x" + Buffer.from(rs).toString("hex"), sig.r + sig.s.slice(2));
  });
});

function derLike(...ints: string[]): Buffer {
  const body = Buffer.from(ints.join(""), "hex");
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
