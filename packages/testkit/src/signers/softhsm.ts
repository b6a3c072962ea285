import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computeAddress, hexlify } from "ethers";
import { pkcs11js, SECP256K1_PARAMS, type Pkcs11Lib } from "@points/signers";

/** Debian's SoftHSM2 library (`apt-get install softhsm2`; .ci/run installs it when missing). */
export const SOFTHSM_MODULE = [
  "/usr/lib/softhsm/libsofthsm2.so",
  "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
].find(existsSync);

/** DER of P-256's OID (1.2.840.10045.3.1.7): a key of another curve than Ethereum's. */
const P256_PARAMS = Buffer.from("06082a8648ce3d030107", "hex");

export interface SoftHsm {
  /** SOFTHSM2_CONF: a child process (a CLI under test) must see the same token directory. */
  conf: string;
  tokenLabel: string;
  pin: string;
  /** The Ethereum address of each secp256k1 key, from the token's public point (independently of @points/signers). */
  addresses: Record<string, string>;
  /** The API's settings for a token key `label` (several: comma-separated lanes). */
  env(labels: string, pin?: string): Record<string, string>;
  remove(): void;
}

/**
 * A fresh SoftHSM2 token in a temp directory (its own SOFTHSM2_CONF, set for this process),
 * with key pairs generated inside it: non-extractable, sensitive, CKM_EC_KEY_PAIR_GEN on the
 * curve asked for. No key material ever exists outside the token.
 */
export function createSoftHsm(keys: { label: string; curve: "secp256k1" | "p256" }[]): SoftHsm {
  if (!SOFTHSM_MODULE) throw new Error("SoftHSM2 is not installed: apt-get install -y softhsm2");
  const dir = mkdtempSync(join(tmpdir(), "softhsm-"));
  mkdirSync(join(dir, "tokens"));
  const conf = join(dir, "softhsm2.conf");
  writeFileSync(conf, `directories.tokendir = ${join(dir, "tokens")}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  const tokenLabel = "points-executor";
  const pin = "246810";
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", tokenLabel, "--pin", pin, "--so-pin", "13579"], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: "ignore",
  });
  const lib = new pkcs11js.PKCS11();
  lib.load(SOFTHSM_MODULE);
  lib.C_Initialize();
  const addresses: Record<string, string> = {};
  try {
    const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === tokenLabel)!;
    const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
    lib.C_Login(session, pkcs11js.CKU_USER, pin);
    for (const k of keys) {
      const params = k.curve === "secp256k1" ? SECP256K1_PARAMS : P256_PARAMS;
      const { publicKey } = lib.C_GenerateKeyPair(
        session,
        { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
        [
          { type: pkcs11js.CKA_TOKEN, value: true },
          { type: pkcs11js.CKA_LABEL, value: k.label },
          { type: pkcs11js.CKA_EC_PARAMS, value: params },
          { type: pkcs11js.CKA_VERIFY, value: true },
        ],
        [
          { type: pkcs11js.CKA_TOKEN, value: true },
          { type: pkcs11js.CKA_LABEL, value: k.label },
          { type: pkcs11js.CKA_PRIVATE, value: true },
          { type: pkcs11js.CKA_SENSITIVE, value: true },
          { type: pkcs11js.CKA_EXTRACTABLE, value: false },
          { type: pkcs11js.CKA_SIGN, value: true },
        ],
      );
      if (k.curve !== "secp256k1") continue;
      const point = lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_EC_POINT }])[0]!.value as Buffer;
      // SoftHSM2 gives the point as a DER OCTET STRING (04 41) around the uncompressed point.
      addresses[k.label] = computeAddress(hexlify(point.subarray(point.length - 65)));
    }
    lib.C_Logout(session);
    lib.C_CloseSession(session);
  } finally {
    lib.C_Finalize();
  }
  return {
    conf,
    tokenLabel,
    pin,
    addresses,
    env: (labels, p = pin) => ({
      EXECUTOR_SIGNER: "pkcs11",
      PKCS11_MODULE: SOFTHSM_MODULE,
      PKCS11_TOKEN_LABEL: tokenLabel,
      PKCS11_PIN: p,
      PKCS11_KEY_LABELS: labels,
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A token that stops answering signatures while `hang.on`: C_Sign's callback waits until
 * `release()` (the service's bound fires first, whatever the machine's speed).
 */
export function hangingToken() {
  const real = new pkcs11js.PKCS11();
  const waiting: (() => void)[] = [];
  const hang = { on: false };
  const lib = new Proxy(real, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (prop !== "C_Sign" || typeof v !== "function") return typeof v === "function" ? v.bind(target) : v;
      return (...args: unknown[]) => {
        const cb = args[3] as ((err: Error | null, data: Buffer) => void) | undefined;
        if (!hang.on || !cb) return (v as (...a: unknown[]) => unknown).apply(target, args);
        waiting.push(() => (v as (...a: unknown[]) => unknown).apply(target, args));
      };
    },
  }) as Pkcs11Lib;
  return {
    lib,
    hang,
    /** Lets every held signature through (the token answers at last). */
    release() {
      hang.on = false;
      waiting.splice(0).forEach((go) => go());
    },
  };
}
