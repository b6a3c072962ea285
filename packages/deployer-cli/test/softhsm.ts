/**
 * A fresh SoftHSM2 token (Debian's softhsm2, a real PKCS#11 token) in a temp directory, with a
 * secp256k1 key pair generated inside it: non-extractable, sensitive. The Ethereum address is
 * derived here from the token's public point, independently of the CLI, for the tests to compare.
 * The same way as the API's signer tests (packages/api/test/helpers/softhsm.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { computeAddress, hexlify } from "ethers";
import { pkcs11js, SECP256K1_PARAMS } from "@points/signers";
import { tempDir } from "./helpers.js";

export const SOFTHSM_MODULE = [
  "/usr/lib/softhsm/libsofthsm2.so",
  "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
].find(existsSync);

export interface SoftHsm {
  /** SOFTHSM2_CONF: the CLI child process must see the same token directory. */
  conf: string;
  tokenLabel: string;
  pin: string;
  keyLabel: string;
  /** The key's Ethereum address, from the token's CKA_EC_POINT. */
  address: string;
  remove(): void;
}

export function createSoftHsm(keyLabel = "deployer"): SoftHsm {
  if (!SOFTHSM_MODULE) throw new Error("SoftHSM2 is not installed: apt-get install -y softhsm2");
  const dir = tempDir("softhsm");
  mkdirSync(path.join(dir, "tokens"));
  const conf = path.join(dir, "softhsm2.conf");
  writeFileSync(
    conf,
    `directories.tokendir = ${path.join(dir, "tokens")}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  const tokenLabel = "points-deployer";
  const pin = "97531864";
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", tokenLabel, "--pin", pin, "--so-pin", "13579"], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: "ignore",
  });
  // The library reads SOFTHSM2_CONF when it is initialized, in this process too.
  process.env.SOFTHSM2_CONF = conf;
  const lib = new pkcs11js.PKCS11();
  lib.load(SOFTHSM_MODULE);
  lib.C_Initialize();
  let point: Buffer;
  try {
    const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === tokenLabel)!;
    const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
    lib.C_Login(session, pkcs11js.CKU_USER, pin);
    const { publicKey } = lib.C_GenerateKeyPair(
      session,
      { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
      [
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_LABEL, value: keyLabel },
        { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_PARAMS },
        { type: pkcs11js.CKA_VERIFY, value: true },
      ],
      [
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_LABEL, value: keyLabel },
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        { type: pkcs11js.CKA_SIGN, value: true },
      ],
    );
    point = lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_EC_POINT }])[0]!.value as Buffer;
    lib.C_Logout(session);
    lib.C_CloseSession(session);
  } finally {
    lib.C_Finalize();
  }
  // SoftHSM2 gives the point as a DER OCTET STRING (04 41) around the uncompressed point.
  const address = computeAddress(hexlify(point.subarray(point.length - 65)));
  return { conf, tokenLabel, pin, keyLabel, address, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
