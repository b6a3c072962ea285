import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { getBytes, keccak256, recoverAddress, toUtf8Bytes } from "ethers";
import { createService, loadConfig } from "../src/index.js";
import { ExecutorSigners } from "../src/core/signer/executors.js";
import { captureLogs, CLOSED_PORT } from "./helpers/logs.js";
import { createSoftHsm, hangingToken, type SoftHsm } from "@points/testkit/signers";

const CHAINS = JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT }]);

// The executor key inside SoftHSM2 (packages/api/README.md#keys): what the token gets wrong
// stops the start with a named error, before the database or any chain is touched.
describe("signer: PKCS#11 (SoftHSM2) at start", () => {
  let hsm: SoftHsm;
  const config = (env: Record<string, string>) =>
    loadConfig({ PORT: "0", DATA_DIR: "memory://", CHAINS, SIGNER_TIMEOUT_MS: "300", ...env });
  const startFails = (env: Record<string, string>, code: string, message: RegExp, seams = {}) =>
    assert.rejects(
      createService(config(env), { logger: captureLogs().logger("silent"), signerSeams: seams }),
      (e: any) => {
        assert.equal(e.code, code, e.message);
        assert.match(e.message, message);
        return true;
      },
    );

  before(() => {
    hsm = createSoftHsm([
      { label: "executor", curve: "secp256k1" },
      { label: "lane-2", curve: "secp256k1" },
      { label: "p256", curve: "p256" },
    ]);
  });
  after(() => hsm?.remove());

  it("keysGeneratedInTheToken_open_theirAddressesComeFromCKA_EC_POINT_andTheirSignaturesRecover", async () => {
    const logs = captureLogs();
    const signers = await ExecutorSigners.open(config(hsm.env("executor,lane-2")), logs.logger("info"));
    try {
      const [a, b] = signers.addresses(31337);
      assert.match(a!, /^0x[0-9a-fA-F]{40}$/);
      assert.notEqual(a, b);
      // The same keys on every chain: the token's keys are not per chain.
      assert.deepEqual(signers.addresses(8453), [a, b]);
      const digest = keccak256(toUtf8Bytes("points"));
      for (const lane of [0, 1]) {
        const sig = await signers.wallet(31337, lane, null).signDigest(digest);
        assert.equal(recoverAddress(getBytes(digest), sig), [a, b][lane]);
        assert.ok(BigInt(sig.s) <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n, "low s");
      }
      const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === "executor keys are in the PKCS#11 token");
      assert.deepEqual(line.executors, [
        { key: "pkcs11:executor", address: a },
        { key: "pkcs11:lane-2", address: b },
      ]);
      assert.ok(!logs.lines.some((l) => l.includes(hsm.pin)), "the PIN is never logged");
    } finally {
      signers.close();
    }
  });

  it("aWrongPin_isSIGNER_LOGIN_FAILED", () =>
    startFails(
      hsm.env("executor", "999999"),
      "SIGNER_LOGIN_FAILED",
      /PKCS#11 login to the token refused: CKR_PIN_INCORRECT/,
    ));

  it("aMissingKeyLabel_isSIGNER_KEY_NOT_FOUND", () =>
    startFails(hsm.env("executor,nobody"), "SIGNER_KEY_NOT_FOUND", /the token holds no private key labelled "nobody"/));

  it("aKeyOfAnotherCurve_P256_isSIGNER_KEY_CURVE", () =>
    startFails(
      hsm.env("p256"),
      "SIGNER_KEY_CURVE",
      /key "p256" is not a secp256k1 key \(CKA_EC_PARAMS 06082a8648ce3d030107\)/,
    ));

  it("aTokenThatDoesNotAnswer_isSIGNER_TIMEOUT_withinSIGNER_TIMEOUT_MS", async () => {
    const token = hangingToken();
    token.hang.on = true;
    try {
      await startFails(
        hsm.env("executor"),
        "SIGNER_TIMEOUT",
        /signing with PKCS#11 key "executor": no answer within 300 ms/,
        {
          pkcs11Lib: token.lib,
        },
      );
    } finally {
      token.release();
    }
  });

  it("anUnknownTokenLabel_orLibrary_isSIGNER_UNAVAILABLE", async () => {
    await startFails(
      { ...hsm.env("executor"), PKCS11_TOKEN_LABEL: "elsewhere" },
      "SIGNER_UNAVAILABLE",
      /no PKCS#11 token is labelled "elsewhere"/,
    );
    await startFails(
      { ...hsm.env("executor"), PKCS11_MODULE: "/nonexistent/libhsm.so" },
      "SIGNER_UNAVAILABLE",
      /PKCS#11 library \/nonexistent\/libhsm.so could not be loaded/,
    );
  });
});
