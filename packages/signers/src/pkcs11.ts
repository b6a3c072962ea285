import { createRequire } from "node:module";
import type * as Pkcs11Js from "pkcs11js";
import { computeAddress, hexlify } from "ethers";
import { SignerError, withinTimeout } from "./errors.js";
import type { DigestSigner } from "./signer.js";

export interface Pkcs11Config {
  /** Path of the token's PKCS#11 library (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so). */
  module: string;
  tokenLabel?: string;
  slot?: number;
  pin: () => string;
  /** CKA_LABEL of each executor key (the first is the executor key, the rest more lanes). */
  keyLabels: string[];
}

/** The binding's constants are not seen as named exports by ESM import: loaded as CommonJS. */
export const pkcs11js = createRequire(import.meta.url)("pkcs11js") as typeof Pkcs11Js;

/** The PKCS#11 calls the backend makes (tests wrap it to make a token answer slowly). */
export type Pkcs11Lib = Pkcs11Js.PKCS11;

/** DER of the secp256k1 curve's OID (1.3.132.0.10), the CKA_EC_PARAMS of every usable key. */
export const SECP256K1_PARAMS = Buffer.from("06052b8104000a", "hex");

export interface Pkcs11Token {
  signers: DigestSigner[];
  close(): void;
}

/**
 * Logs in to the token and finds each key pair by label. Keys never leave the token: it is
 * given digests (CKM_ECDSA) and answers r || s. Every failure is named: a library or token that
 * cannot be opened (SIGNER_UNAVAILABLE), a PIN refused (SIGNER_LOGIN_FAILED), a label with no
 * key (SIGNER_KEY_NOT_FOUND), a key of another curve (SIGNER_KEY_CURVE).
 */
export function openPkcs11(cfg: Pkcs11Config, timeoutMs: number, lib: Pkcs11Lib = new pkcs11js.PKCS11()): Pkcs11Token {
  try {
    lib.load(cfg.module);
    initialize(lib, cfg.module);
  } catch (e) {
    throw new SignerError("SIGNER_UNAVAILABLE", `PKCS#11 library ${cfg.module} could not be loaded: ${msg(e)}`, e);
  }
  let session: Buffer | undefined;
  try {
    const slot = findSlot(lib, cfg);
    session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
    try {
      lib.C_Login(session, pkcs11js.CKU_USER, cfg.pin());
    } catch (e) {
      if (code(e) !== pkcs11js.CKR_USER_ALREADY_LOGGED_IN)
        throw new SignerError("SIGNER_LOGIN_FAILED", `PKCS#11 login to the token refused: ${msg(e)}`, e);
    }
    const opened = session;
    const signers = cfg.keyLabels.map((label) => keySigner(lib, opened, slot, label, timeoutMs));
    return {
      signers,
      close: () => {
        try {
          lib.C_CloseSession(opened);
          finalize(lib, cfg.module);
        } catch {
          // Closing a token that went away: nothing left to release.
        }
      },
    };
  } catch (e) {
    try {
      if (session) lib.C_CloseSession(session);
      finalize(lib, cfg.module);
    } catch {
      // Already failing: the first error is the one to report.
    }
    if (e instanceof SignerError) throw e;
    throw new SignerError("SIGNER_UNAVAILABLE", `PKCS#11 token could not be opened: ${msg(e)}`, e);
  }
}

/**
 * A library is initialized once per process however many openers it has (a second
 * C_Initialize is refused, and one C_Finalize would end every opener's sessions).
 */
const openers = new Map<string, number>();

function initialize(lib: Pkcs11Lib, module: string): void {
  const n = openers.get(module) ?? 0;
  if (n === 0) {
    try {
      lib.C_Initialize();
    } catch (e) {
      if (code(e) !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw e;
    }
  }
  openers.set(module, n + 1);
}

function finalize(lib: Pkcs11Lib, module: string): void {
  const n = (openers.get(module) ?? 1) - 1;
  openers.set(module, n);
  if (n === 0) lib.C_Finalize();
}

function findSlot(lib: Pkcs11Lib, cfg: Pkcs11Config): Buffer {
  const slots = lib.C_GetSlotList(true);
  if (cfg.slot !== undefined) {
    const slot = slots[cfg.slot];
    if (!slot) throw new SignerError("SIGNER_UNAVAILABLE", `PKCS#11 slot ${cfg.slot} has no token`);
    return slot;
  }
  const slot = slots.find((s) => lib.C_GetTokenInfo(s).label.trim() === cfg.tokenLabel);
  if (!slot) throw new SignerError("SIGNER_UNAVAILABLE", `no PKCS#11 token is labelled "${cfg.tokenLabel}"`);
  return slot;
}

function findOne(lib: Pkcs11Lib, session: Buffer, cls: number, label: string): Buffer | null {
  lib.C_FindObjectsInit(session, [
    { type: pkcs11js.CKA_CLASS, value: cls },
    { type: pkcs11js.CKA_LABEL, value: label },
  ]);
  try {
    return lib.C_FindObjects(session);
  } finally {
    lib.C_FindObjectsFinal(session);
  }
}

function keySigner(lib: Pkcs11Lib, session: Buffer, slot: Buffer, label: string, timeoutMs: number): DigestSigner {
  const priv = findOne(lib, session, pkcs11js.CKO_PRIVATE_KEY, label);
  const pub = findOne(lib, session, pkcs11js.CKO_PUBLIC_KEY, label);
  if (!priv || !pub)
    throw new SignerError(
      "SIGNER_KEY_NOT_FOUND",
      `the token holds no ${priv ? "public" : "private"} key labelled "${label}"`,
    );
  const [params, point] = lib.C_GetAttributeValue(session, pub, [
    { type: pkcs11js.CKA_EC_PARAMS },
    { type: pkcs11js.CKA_EC_POINT },
  ]);
  const curve = params?.value;
  if (!Buffer.isBuffer(curve) || !curve.equals(SECP256K1_PARAMS))
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `key "${label}" is not a secp256k1 key (CKA_EC_PARAMS ${hexOf(curve)}); Ethereum needs secp256k1`,
    );
  // A token that left the point out gets the same refusal as a point of the wrong size.
  const ecPoint = point?.value;
  const address = computeAddress(
    hexlify(uncompressedPoint(Buffer.isBuffer(ecPoint) ? ecPoint : Buffer.alloc(0), label)),
  );
  return {
    address,
    describe: `pkcs11:${label}`,
    signDigest: (digest) =>
      withinTimeout(signOnce(lib, slot, priv, digest), timeoutMs, `signing with PKCS#11 key "${label}"`),
  };
}

/** One signature on its own session: a call that timed out cannot leave another's session mid-operation. */
function signOnce(lib: Pkcs11Lib, slot: Buffer, key: Buffer, digest: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let session: Buffer;
    try {
      session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
      lib.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key);
    } catch (e) {
      reject(new SignerError("SIGNER_UNAVAILABLE", `PKCS#11 signing could not start: ${msg(e)}`, e));
      return;
    }
    lib.C_Sign(session, Buffer.from(digest), Buffer.alloc(72), (err, sig) => {
      try {
        lib.C_CloseSession(session);
      } catch {
        // The signature (or its error) is what matters.
      }
      if (err) reject(new SignerError("SIGNER_UNAVAILABLE", `PKCS#11 signing failed: ${msg(err)}`, err));
      else resolve(new Uint8Array(sig));
    });
  });
}

/** CKA_EC_POINT is a DER OCTET STRING around the 65-byte uncompressed point (some tokens give it bare). */
function uncompressedPoint(value: Buffer, label: string): Buffer {
  if (value.length === 65 && value[0] === 4) return value;
  if (value.length === 67 && value[0] === 0x04 && value[1] === 65 && value[2] === 4) return value.subarray(2);
  throw new SignerError(
    "SIGNER_KEY_CURVE",
    `key "${label}" has an EC point of ${value.length} bytes, not a secp256k1 point`,
  );
}

const hexOf = (v: unknown) => (Buffer.isBuffer(v) ? v.toString("hex") : String(v));
const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));
const code = (e: unknown) => (e as { code?: number }).code;
