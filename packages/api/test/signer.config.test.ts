import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configProblems } from "./helpers/config.js";
import { captureLogs } from "./helpers/logs.js";
import { loadConfig } from "../src/index.js";
import { ExecutorSigners } from "../src/core/signer/executors.js";

const KEY = `0x${"1".repeat(64)}`;
const PRODUCTION = { NODE_ENV: "production", CONSOLE_SECRET: "s".repeat(32), SMTP_URL: "smtp://mail.example.com" };
const LOCAL_REFUSED =
  "EXECUTOR_PRIVATE_KEY: raw executor keys are refused when NODE_ENV=production: set EXECUTOR_SIGNER=pkcs11 (an HSM) or aws-kms (AWS KMS), or opt in with EXECUTOR_ALLOW_LOCAL_KEY=true";

// Where the executor keys live (packages/api/README.md#keys), checked once at boot.
describe("signer: settings", () => {
  it("production_refusesARawKey_unlessTheOperatorOptsIn_andTheStartUpLogSaysSo", async () => {
    assert.deepEqual(configProblems({ ...PRODUCTION, EXECUTOR_PRIVATE_KEY: KEY }), [LOCAL_REFUSED]);
    assert.deepEqual(configProblems({ ...PRODUCTION, EXECUTOR_PRIVATE_KEYS: KEY }), [
      LOCAL_REFUSED,
      "EXECUTOR_PRIVATE_KEY: is required for chain 31337 (the public development key serves only a dev chain id on a loopback RPC outside production)",
    ]);
    const config = loadConfig({ ...PRODUCTION, EXECUTOR_PRIVATE_KEY: KEY, EXECUTOR_ALLOW_LOCAL_KEY: "true" });
    const logs = captureLogs();
    (await ExecutorSigners.open(config, logs.logger("info"))).close();
    const warned = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    assert.deepEqual(
      warned.map((l) => l.msg),
      [
        "executor keys are raw keys in the environment (EXECUTOR_ALLOW_LOCAL_KEY=true): use an HSM (EXECUTOR_SIGNER=pkcs11) or AWS KMS (EXECUTOR_SIGNER=aws-kms) in production",
      ],
    );
    assert.ok(!logs.lines.some((l) => l.includes("1111111111")), "the key is never logged");
  });

  it("pkcs11_withoutItsSettings_refusesToStart_listingEachOne", () => {
    assert.deepEqual(configProblems({ EXECUTOR_SIGNER: "pkcs11" }), [
      "PKCS11_MODULE: is required when EXECUTOR_SIGNER=pkcs11",
      "PKCS11_TOKEN_LABEL: one of PKCS11_TOKEN_LABEL or PKCS11_SLOT is required when EXECUTOR_SIGNER=pkcs11",
      "PKCS11_KEY_LABELS: is required when EXECUTOR_SIGNER=pkcs11",
      "PKCS11_PIN: set exactly one of PKCS11_PIN or PKCS11_PIN_FILE when EXECUTOR_SIGNER=pkcs11",
    ]);
    const full = {
      EXECUTOR_SIGNER: "pkcs11",
      PKCS11_MODULE: "/x.so",
      PKCS11_TOKEN_LABEL: "t",
      PKCS11_KEY_LABELS: "a,b",
    };
    assert.deepEqual(configProblems({ ...full, PKCS11_PIN: "1", EXECUTOR_PRIVATE_KEY: KEY }), [
      "EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=pkcs11 (the keys are the token's)",
    ]);
    assert.deepEqual(configProblems({ ...full, PKCS11_PIN_FILE: "/nonexistent/pin" }), [
      "PKCS11_PIN_FILE: /nonexistent/pin cannot be read",
    ]);
    const dir = mkdtempSync(join(tmpdir(), "pin-"));
    writeFileSync(join(dir, "pin"), "123456\n");
    const config = loadConfig({ ...full, PKCS11_PIN_FILE: join(dir, "pin"), ...PRODUCTION });
    assert.equal(config.signer.pkcs11?.pin(), "123456");
    assert.deepEqual(config.signer.pkcs11?.keyLabels, ["a", "b"]);
    assert.ok(!JSON.stringify(config).includes("123456"), "the PIN never appears in the serialised configuration");
    // Keys in a token serve every chain: no local key, and none is asked for.
    assert.deepEqual(config.executorKeys(31337), []);
  });

  it("awsKms_withoutItsSettings_refusesToStart_sayingHowToFixEach", () => {
    assert.deepEqual(configProblems({ EXECUTOR_SIGNER: "aws-kms" }), [
      "AWS_KMS_KEY_IDS: is required when EXECUTOR_SIGNER=aws-kms (the executor key's id, ARN or alias first, then one per extra lane)",
      "AWS_REGION: is required when EXECUTOR_SIGNER=aws-kms (the region of the keys, e.g. eu-west-1)",
    ]);
    const full = {
      EXECUTOR_SIGNER: "aws-kms",
      AWS_KMS_KEY_IDS: "alias/executor,mrk-1234abcd",
      AWS_REGION: "eu-west-1",
    };
    assert.deepEqual(
      configProblems({
        ...full,
        AWS_REGION: "Frankfurt",
        AWS_KMS_KEY_IDS: "alias/executor,alias/executor",
        EXECUTOR_PRIVATE_KEY: KEY,
      }),
      [
        'AWS_REGION: "Frankfurt" is not an AWS region code: set the region of the keys, e.g. eu-west-1',
        'AWS_KMS_KEY_IDS: "alias/executor" is listed twice: each lane needs its own key (list each key once)',
        "EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=aws-kms (the keys are in AWS KMS): unset it",
      ],
    );
    assert.deepEqual(configProblems({ ...full, AWS_KMS_KEY_IDS: "alias/a, alias/b" }), [
      "AWS_KMS_KEY_IDS: must be 1 to 16 comma-separated KMS key ids, key ARNs or aliases (alias/executor), without spaces",
    ]);
    assert.deepEqual(
      configProblems({ ...full, AWS_KMS_KEY_IDS: Array.from({ length: 17 }, (_, i) => `k${i}`).join(",") }),
      [
        "AWS_KMS_KEY_IDS: must be 1 to 16 comma-separated KMS key ids, key ARNs or aliases (alias/executor), without spaces",
      ],
    );
    assert.deepEqual(configProblems({ ...full, AWS_KMS_ENDPOINT: "vpce.example" }), [
      "AWS_KMS_ENDPOINT: must be the http(s):// URL of a KMS endpoint, e.g. a VPC endpoint https://vpce-0abc-1x2y.kms.eu-west-1.vpce.amazonaws.com (https:// in production), or unset",
    ]);
    assert.deepEqual(configProblems({ ...full, ...PRODUCTION, AWS_KMS_ENDPOINT: "http://10.0.0.1" }), [
      "AWS_KMS_ENDPOINT: must be https:// when NODE_ENV=production (a KMS VPC endpoint's https:// URL), or unset for the region's public endpoint",
    ]);
    assert.deepEqual(configProblems({ EXECUTOR_SIGNER: "kms" }), [
      "EXECUTOR_SIGNER: must be local, pkcs11, aws-kms or gcp-kms",
    ]);
    const config = loadConfig({ ...full, ...PRODUCTION, AWS_KMS_ENDPOINT: "https://kms.eu-west-1.amazonaws.com" });
    assert.deepEqual(config.signer.awsKms, {
      region: "eu-west-1",
      endpoint: "https://kms.eu-west-1.amazonaws.com",
      keyIds: ["alias/executor", "mrk-1234abcd"],
    });
    // KMS's keys serve every chain: no local key, and none is asked for.
    assert.deepEqual(config.executorKeys(31337), []);
  });

  it("gcpKms_withoutItsSettings_refusesToStart_sayingHowToFixEach", () => {
    const v = (key: string, n = 1) =>
      `projects/points-prod/locations/europe-west1/keyRings/executors/cryptoKeys/${key}/cryptoKeyVersions/${n}`;
    assert.deepEqual(configProblems({ EXECUTOR_SIGNER: "gcp-kms" }), [
      "GCP_KMS_KEY_VERSIONS: is required when EXECUTOR_SIGNER=gcp-kms (the executor key version's full name first, then one per extra lane)",
    ]);
    const full = { EXECUTOR_SIGNER: "gcp-kms", GCP_KMS_KEY_VERSIONS: `${v("executor")},${v("lane-2", 3)}` };
    assert.deepEqual(
      configProblems({
        ...full,
        GCP_KMS_KEY_VERSIONS: `${v("executor")},executor,${v("executor")}`,
        EXECUTOR_PRIVATE_KEY: KEY,
      }),
      [
        'GCP_KMS_KEY_VERSIONS: "executor" is not a key version name: give projects/PROJECT/locations/LOCATION/keyRings/RING/cryptoKeys/KEY/cryptoKeyVersions/N (gcloud kms keys versions list --key KEY --keyring RING --location LOCATION)',
        `GCP_KMS_KEY_VERSIONS: "${v("executor")}" is listed twice: each lane needs its own key (list each key version once)`,
        "EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=gcp-kms (the keys are in Google Cloud KMS): unset it",
      ],
    );
    // A key without its version is not a key version: the operator must pin the version that signs.
    assert.deepEqual(
      configProblems({ ...full, GCP_KMS_KEY_VERSIONS: v("executor").replace(/\/cryptoKeyVersions\/1$/, "") }),
      [
        `GCP_KMS_KEY_VERSIONS: "${v("executor").replace(/\/cryptoKeyVersions\/1$/, "")}" is not a key version name: give projects/PROJECT/locations/LOCATION/keyRings/RING/cryptoKeys/KEY/cryptoKeyVersions/N (gcloud kms keys versions list --key KEY --keyring RING --location LOCATION)`,
      ],
    );
    assert.deepEqual(configProblems({ ...full, GCP_KMS_KEY_VERSIONS: `${v("a")}, ${v("b")}` }), [
      "GCP_KMS_KEY_VERSIONS: must be 1 to 16 comma-separated key version names (projects/P/locations/L/keyRings/R/cryptoKeys/K/cryptoKeyVersions/V), without spaces",
    ]);
    assert.deepEqual(configProblems({ ...full, GCP_KMS_ENDPOINT: "cloudkms.googleapis.com" }), [
      "GCP_KMS_ENDPOINT: must be the http(s):// URL of a Cloud KMS endpoint, e.g. https://cloudkms.googleapis.com or a Private Service Connect endpoint (https:// in production), or unset",
    ]);
    assert.deepEqual(configProblems({ ...full, ...PRODUCTION, GCP_KMS_ENDPOINT: "http://10.0.0.1" }), [
      "GCP_KMS_ENDPOINT: must be https:// when NODE_ENV=production (a Cloud KMS endpoint's https:// URL), or unset for cloudkms.googleapis.com",
    ]);
    const config = loadConfig({ ...full, ...PRODUCTION });
    assert.deepEqual(config.signer.gcpKms, { keyVersions: [v("executor"), v("lane-2", 3)], endpoint: undefined });
    // KMS's keys serve every chain: no local key, and none is asked for.
    assert.deepEqual(config.executorKeys(31337), []);
  });
});
