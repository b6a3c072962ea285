import { createPublicKey, type PublicKeyInput } from "node:crypto";
import { computeAddress, hexlify } from "ethers";
import { SignerError } from "./errors.js";

/**
 * The Ethereum address of a secp256k1 SubjectPublicKeyInfo (DER from AWS KMS, PEM from Google
 * Cloud KMS), parsed by Node's crypto (OpenSSL). A key of another curve, or bytes that are not a
 * public key, are SIGNER_KEY_CURVE; `who` names the key in the message.
 */
export function spkiAddress(input: PublicKeyInput & { format: "der" | "pem" }, who: string): string {
  let jwk: { crv?: string; x?: string; y?: string };
  let curve: string | undefined;
  try {
    const key = createPublicKey(input);
    curve = key.asymmetricKeyDetails?.namedCurve;
    jwk = key.export({ format: "jwk" });
  } catch (e) {
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `${who} returned a public key that is not a ${input.format.toUpperCase()} SubjectPublicKeyInfo`,
      e,
    );
  }
  if (curve !== "secp256k1" || !jwk.x || !jwk.y)
    throw new SignerError("SIGNER_KEY_CURVE", `${who} has a public key on ${curve ?? "no named curve"}, not secp256k1`);
  const x = Buffer.from(jwk.x, "base64url");
  const y = Buffer.from(jwk.y, "base64url");
  const point = Buffer.concat([Buffer.from([4]), Buffer.alloc(32 - x.length), x, Buffer.alloc(32 - y.length), y]);
  return computeAddress(hexlify(point));
}

/**
 * r || s (64 bytes) of a DER ECDSA-Sig-Value, SEQUENCE { INTEGER r, INTEGER s } (RFC 3279
 * 2.2.3), which is what AWS KMS and Google Cloud KMS answer. Strict: definite short lengths (a
 * secp256k1 signature is at most 72 bytes), positive minimal integers of at most 32 bytes,
 * nothing after. Anything else is SIGNER_ADDRESS_MISMATCH (a malformed signature, like any the
 * seam refuses); `who` names the service in the message.
 */
export function derSignatureToRs(der: Uint8Array, who = "the KMS"): Uint8Array {
  const bad = (why: string) =>
    new SignerError("SIGNER_ADDRESS_MISMATCH", `${who} returned a signature that is not DER ECDSA: ${why}`);
  if (der.length < 8 || der.length > 72 || der[0] !== 0x30) throw bad("not a SEQUENCE of 8 to 72 bytes");
  if (der[1] !== der.length - 2) throw bad("the SEQUENCE length does not match");
  const out = new Uint8Array(64);
  let at = 2;
  for (const half of [0, 1]) {
    if (der[at] !== 0x02) throw bad("an INTEGER was expected");
    const len = der[at + 1]!;
    const start = at + 2;
    const end = start + len;
    if (len === 0 || len > 33 || end > der.length) throw bad("an INTEGER has a wrong length");
    if (der[start]! & 0x80) throw bad("a negative INTEGER");
    if (len > 1 && der[start] === 0 && !(der[start + 1]! & 0x80)) throw bad("an INTEGER is not minimally encoded");
    let value = der.subarray(start, end);
    if (value[0] === 0) value = value.subarray(1);
    if (value.length > 32) throw bad("an INTEGER is longer than 32 bytes");
    out.set(value, half * 32 + 32 - value.length);
    at = end;
  }
  if (at !== der.length) throw bad("bytes after the two INTEGERs");
  return out;
}
