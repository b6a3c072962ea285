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
  "EXECUTOR_PRIVATE_KEY: raw executor keys are refused when NODE_ENV=production: set EXECUTOR_SIGNER=pkcs11 (an HSM), or opt in with EXECUTOR_ALLOW_LOCAL_KEY=true";

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
        "executor keys are raw keys in the environment (EXECUTOR_ALLOW_LOCAL_KEY=true): use an HSM (EXECUTOR_SIGNER=pkcs11) in production",
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
});
