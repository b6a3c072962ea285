/**
 * --signer aws-kms and --signer gcp-kms through the built CLI against a hardhat node, each with
 * the real cloud SDK talking to a local stand-in of the KMS's wire protocol (@points/testkit/signers):
 * the release is sent from the KMS key's address, and a key of another curve stops the command
 * with SIGNER_KEY_CURVE before any chain traffic. Credentials are dummies given to the child
 * process only; no request leaves this machine.
 */
import assert from "node:assert/strict";
import { Contract, JsonRpcProvider, ZeroHash } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import {
  FAKE_ACCESS_KEY_ID,
  FAKE_SECRET_ACCESS_KEY,
  startFakeGcpKms,
  startFakeKms,
  versionName,
  type FakeGcpKms,
  type FakeKms,
} from "@points/testkit/signers";
import { errorLine, requireBuilt, runCli, tempDir, type Run } from "./helpers.js";

describe("points-deployer --signer aws-kms | gcp-kms (KMS stand-ins, against hardhat node)", function () {
  this.timeout(240_000);
  let node: DevNode;
  let provider: JsonRpcProvider;
  let aws: FakeKms;
  let gcp: FakeGcpKms;
  const awsEnv = (keyId: string) => ({
    RPC_URL: node.url,
    DEPLOYER_SIGNER: "aws-kms",
    DEPLOYER_AWS_KMS_KEY_ID: keyId,
    DEPLOYER_AWS_REGION: aws.region,
    DEPLOYER_AWS_KMS_ENDPOINT: aws.endpoint,
    AWS_ACCESS_KEY_ID: FAKE_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: FAKE_SECRET_ACCESS_KEY,
    AWS_EC2_METADATA_DISABLED: "true",
  });
  const gcpEnv = (id: string) => ({
    RPC_URL: node.url,
    DEPLOYER_SIGNER: "gcp-kms",
    DEPLOYER_GCP_KMS_KEY_VERSION: versionName(id),
    DEPLOYER_GCP_KMS_ENDPOINT: gcp.endpoint,
    GOOGLE_APPLICATION_CREDENTIALS: gcp.credentialsFile,
    METADATA_SERVER_DETECTION: "none",
  });

  /** The release went out from `from` alone, which is now the ProgramFactory's admin. */
  async function assertReleasedFrom(r: Run, from: string) {
    assert.equal(r.code, 0, r.stderr);
    const sent = r.stdout.match(/^\[release\] tx 0x[0-9a-f]+/gm) ?? [];
    assert.ok(sent.length > 0, `no transaction in:\n${r.stdout}`);
    assert.equal(await provider.getTransactionCount(from), sent.length);
    assert.match(r.stdout, new RegExp(`^\\s*deployer: ${from}$`, "m"));
    const factory = /programFactory: (0x[0-9a-fA-F]{40})/.exec(r.stdout)![1]!;
    const roles = new Contract(factory, ["function hasRole(bytes32,address) view returns (bool)"], provider);
    assert.equal(await roles.hasRole(ZeroHash, from), true);
  }

  before(async () => {
    requireBuilt();
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    aws = await startFakeKms({
      deployer: { keySpec: "ECC_SECG_P256K1" },
      p256: { keySpec: "ECC_NIST_P256" },
    });
    gcp = await startFakeGcpKms({
      deployer: { algorithm: "EC_SIGN_SECP256K1_SHA256" },
      p256: { algorithm: "EC_SIGN_P256_SHA256" },
    });
    for (const a of [aws.address("deployer"), gcp.address("deployer")])
      await provider.send("hardhat_setBalance", [a, "0x56BC75E2D63100000"]);
  });
  after(async () => {
    provider?.destroy();
    await aws?.close();
    await gcp?.close();
    await node?.stop();
  });

  it("awsKms_release_isSentFromTheKmsKey_everyDigestSignedInKms", async () => {
    const r = await runCli(["release", "--manifest-dir", tempDir("aws-release")], awsEnv("deployer"));
    await assertReleasedFrom(r, aws.address("deployer"));
    assert.ok(!r.stdout.includes(FAKE_SECRET_ACCESS_KEY) && !r.stderr.includes(FAKE_SECRET_ACCESS_KEY));
    // The start-up check, then one signature per transaction, all asked of KMS.
    const signs = aws.requests.filter((q) => q.target === "TrentService.Sign" && q.keyId === "deployer");
    assert.equal(signs.length, (await provider.getTransactionCount(aws.address("deployer"))) + 1);
  });

  it("awsKms_keyOfAnotherCurve_exitsWithSIGNER_KEY_CURVE_andSendsNothing", async () => {
    const blockBefore = await provider.getBlockNumber();
    const r = await runCli(["release", "--manifest-dir", tempDir("aws-curve")], awsEnv("p256"));
    assert.equal(r.code, 4);
    assert.equal(
      errorLine(r),
      'error [SIGNER_KEY_CURVE]: AWS KMS key "p256" is ECC_NIST_P256, not ECC_SECG_P256K1 (secp256k1); Ethereum needs secp256k1: create the key with --key-spec ECC_SECG_P256K1 --key-usage SIGN_VERIFY',
    );
    assert.equal(r.stdout, "");
    assert.equal(await provider.getBlockNumber(), blockBefore);
  });

  it("gcpKms_release_isSentFromTheKmsKey", async () => {
    const r = await runCli(["release", "--manifest-dir", tempDir("gcp-release")], gcpEnv("deployer"));
    await assertReleasedFrom(r, gcp.address("deployer"));
  });

  it("gcpKms_keyOfAnotherCurve_exitsWithSIGNER_KEY_CURVE_andSendsNothing", async () => {
    const blockBefore = await provider.getBlockNumber();
    const r = await runCli(["release", "--manifest-dir", tempDir("gcp-curve")], gcpEnv("p256"));
    assert.equal(r.code, 4);
    assert.equal(
      errorLine(r),
      `error [SIGNER_KEY_CURVE]: Google Cloud KMS key version "${versionName("p256")}" is EC_SIGN_P256_SHA256, not EC_SIGN_SECP256K1_SHA256; Ethereum needs secp256k1: create the key with gcloud kms keys create KEY --keyring RING --location LOCATION --purpose asymmetric-signing --default-algorithm ec-sign-secp256k1-sha256 --protection-level hsm`,
    );
    assert.equal(r.stdout, "");
    assert.equal(await provider.getBlockNumber(), blockBefore);
  });
});
