import { getAddress, recoverAddress, Signature, toBeHex, zeroPadValue } from "ethers";
import { SignerError } from "./errors.js";

/**
 * One executor key, wherever it lives (packages/signers/README.md). A backend signs
 * 32-byte digests only and returns r || s (64 bytes, optionally + v); the service turns that
 * into an Ethereum signature (finishSignature), so no backend is trusted with the encoding.
 */
export interface DigestSigner {
  /** The key's Ethereum address (checksummed), derived from its public key. */
  readonly address: string;
  /** Where the key lives, for logs: "local", "pkcs11:<label>" or "aws-kms:<key id>". */
  readonly describe: string;
  signDigest(digest: Uint8Array): Promise<Uint8Array>;
}

/** secp256k1's group order; s above half of it is flipped (EIP-2: only low-s is valid). */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Makes a backend's raw r || s an Ethereum signature: s made low, the recovery id found by
 * recovering the address. A signature that recovers to no key but `address` is refused
 * (SIGNER_ADDRESS_MISMATCH), so nothing signed by the wrong key is ever sent.
 */
export function finishSignature(digest: Uint8Array, raw: Uint8Array, address: string): Signature {
  if (raw.length !== 64 && raw.length !== 65)
    throw new SignerError("SIGNER_ADDRESS_MISMATCH", `the signer returned ${raw.length} bytes, not r || s (64)`);
  const r = BigInt(toHex(raw.subarray(0, 32)));
  let s = BigInt(toHex(raw.subarray(32, 64)));
  if (r === 0n || s === 0n || r >= N || s >= N)
    throw new SignerError("SIGNER_ADDRESS_MISMATCH", "the signer returned an invalid signature (r or s out of range)");
  if (s > N / 2n) s = N - s;
  const want = getAddress(address);
  for (const yParity of [0, 1] as const) {
    const sig = Signature.from({ r: word(r), s: word(s), yParity });
    try {
      if (recoverAddress(digest, sig) === want) return sig;
    } catch {
      // Not a point on the curve for this parity: try the other.
    }
  }
  throw new SignerError(
    "SIGNER_ADDRESS_MISMATCH",
    `the signature does not recover to the executor ${want}: the backend signed with another key; nothing was sent`,
  );
}

const toHex = (b: Uint8Array) => "0x" + Buffer.from(b).toString("hex");
const word = (n: bigint) => zeroPadValue(toBeHex(n), 32);
