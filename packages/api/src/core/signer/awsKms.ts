import { createPublicKey } from "node:crypto";
import { GetPublicKeyCommand, KMSClient, SignCommand } from "@aws-sdk/client-kms";
import { computeAddress, hexlify } from "ethers";
import { SignerError, withinTimeout } from "./errors.js";
import type { DigestSigner } from "./signer.js";

export interface AwsKmsConfig {
  region: string;
  /** A VPC endpoint (or a test's fake); undefined: the region's public endpoint. */
  endpoint?: string;
  /** Key id, key ARN, alias name or alias ARN of each executor key (the first is the executor key). */
  keyIds: string[];
}

export interface AwsKmsKeys {
  signers: DigestSigner[];
  close(): void;
}

/**
 * Opens the executor keys kept in AWS KMS (packages/api/README.md#keys). Credentials are the
 * AWS SDK's default provider chain (environment, shared files, web identity, container or
 * instance role): this service never reads or logs them. Each key's public key is read once
 * (GetPublicKey); it must be ECC_SECG_P256K1 for SIGN_VERIFY (SIGNER_KEY_CURVE otherwise), and
 * its Ethereum address comes from the point in the SubjectPublicKeyInfo. KMS is then given
 * digests only (Sign, MessageType DIGEST, ECDSA_SHA_256) and answers a DER signature, which is
 * handed on as r || s; the seam makes s low and checks that it recovers (signer.ts). Every
 * call is bounded by `timeoutMs` (SIGNER_TIMEOUT) and aborted past it.
 */
export async function openAwsKms(cfg: AwsKmsConfig, timeoutMs: number): Promise<AwsKmsKeys> {
  const client = new KMSClient({
    region: cfg.region,
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    // The SDK retries throttling and dropped connections itself, inside our bound.
    maxAttempts: 3,
  });
  try {
    const signers: DigestSigner[] = [];
    for (const keyId of cfg.keyIds) signers.push(await keySigner(client, keyId, timeoutMs));
    return { signers, close: () => client.destroy() };
  } catch (e) {
    client.destroy();
    throw e;
  }
}

async function keySigner(client: KMSClient, keyId: string, timeoutMs: number): Promise<DigestSigner> {
  const out = await kmsCall(`reading AWS KMS key "${keyId}"`, keyId, timeoutMs, (abortSignal) =>
    client.send(new GetPublicKeyCommand({ KeyId: keyId }), { abortSignal }),
  );
  if (out.KeySpec !== "ECC_SECG_P256K1")
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `AWS KMS key "${keyId}" is ${out.KeySpec ?? "of no key spec"}, not ECC_SECG_P256K1 (secp256k1); Ethereum needs secp256k1: create the key with --key-spec ECC_SECG_P256K1 --key-usage SIGN_VERIFY`,
    );
  if (out.KeyUsage !== "SIGN_VERIFY")
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `AWS KMS key "${keyId}" is for ${out.KeyUsage ?? "no key usage"}, not SIGN_VERIFY: create the key with --key-usage SIGN_VERIFY`,
    );
  const address = computeAddress(hexlify(uncompressedPoint(out.PublicKey, keyId)));
  return {
    address,
    describe: `aws-kms:${keyId}`,
    signDigest: async (digest) => {
      const signed = await kmsCall(`signing with AWS KMS key "${keyId}"`, keyId, timeoutMs, (abortSignal) =>
        client.send(
          new SignCommand({
            KeyId: keyId,
            Message: digest,
            MessageType: "DIGEST",
            SigningAlgorithm: "ECDSA_SHA_256",
          }),
          { abortSignal },
        ),
      );
      if (!signed.Signature)
        throw new SignerError("SIGNER_ADDRESS_MISMATCH", `AWS KMS key "${keyId}" answered Sign with no signature`);
      return derSignatureToRs(signed.Signature);
    },
  };
}

/**
 * The secp256k1 point of a DER SubjectPublicKeyInfo, parsed by Node's crypto (OpenSSL): a key of
 * another curve, or bytes that are not a public key, are SIGNER_KEY_CURVE.
 */
function uncompressedPoint(spki: Uint8Array | undefined, keyId: string): Uint8Array {
  let jwk: { crv?: string; x?: string; y?: string };
  let curve: string | undefined;
  try {
    const key = createPublicKey({ key: Buffer.from(spki ?? []), format: "der", type: "spki" });
    curve = key.asymmetricKeyDetails?.namedCurve;
    jwk = key.export({ format: "jwk" });
  } catch (e) {
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `AWS KMS key "${keyId}" returned a public key that is not a DER SubjectPublicKeyInfo`,
      e,
    );
  }
  if (curve !== "secp256k1" || !jwk.x || !jwk.y)
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `AWS KMS key "${keyId}" has a public key on ${curve ?? "no named curve"}, not secp256k1`,
    );
  const x = Buffer.from(jwk.x, "base64url");
  const y = Buffer.from(jwk.y, "base64url");
  return Buffer.concat([Buffer.from([4]), Buffer.alloc(32 - x.length), x, Buffer.alloc(32 - y.length), y]);
}

/**
 * r || s (64 bytes) of a DER ECDSA-Sig-Value, SEQUENCE { INTEGER r, INTEGER s } (RFC 3279
 * 2.2.3), which is what KMS answers. Strict: definite short lengths (a secp256k1 signature is
 * at most 72 bytes), positive minimal integers of at most 32 bytes, nothing after. Anything
 * else is SIGNER_ADDRESS_MISMATCH (a malformed signature, like any the seam refuses).
 */
export function derSignatureToRs(der: Uint8Array): Uint8Array {
  const bad = (why: string) =>
    new SignerError("SIGNER_ADDRESS_MISMATCH", `AWS KMS returned a signature that is not DER ECDSA: ${why}`);
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

/**
 * One KMS request within `timeoutMs` (aborted past it), its failure named. AWS's own message
 * stays in `cause` (it may name the caller's account and role); ours names the key and the fix.
 */
async function kmsCall<T>(
  what: string,
  keyId: string,
  timeoutMs: number,
  call: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  try {
    return await withinTimeout(call(abort.signal), timeoutMs, what);
  } catch (e) {
    // A request past the bound must not linger (or answer later): it is cancelled.
    abort.abort();
    throw e instanceof SignerError ? e : kmsError(what, keyId, e);
  }
}

const LOGIN = new Set([
  "AccessDeniedException",
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "IncompleteSignature",
  "ExpiredTokenException",
  "InvalidClientTokenId",
  "MissingAuthenticationToken",
]);
const NOT_FOUND = new Set(["NotFoundException", "InvalidArnException"]);
const DISABLED = new Set(["DisabledException", "KMSInvalidStateException", "KeyUnavailableException"]);
const CURVE = new Set(["InvalidKeyUsageException", "UnsupportedOperationException"]);

function kmsError(what: string, keyId: string, e: unknown): SignerError {
  const name = e instanceof Error ? e.name : "Error";
  if (name === "CredentialsProviderError")
    return new SignerError(
      "SIGNER_LOGIN_FAILED",
      `${what}: the AWS SDK's default chain found no credentials (environment, shared config and credentials files, web identity, container or instance role): give the service one of them`,
      e,
    );
  if (LOGIN.has(name))
    return new SignerError(
      "SIGNER_LOGIN_FAILED",
      `${what}: AWS refused the credentials or their permission (${name}): the credentials of the AWS SDK's default chain must be allowed kms:GetPublicKey and kms:Sign on the key`,
      e,
    );
  if (NOT_FOUND.has(name))
    return new SignerError(
      "SIGNER_KEY_NOT_FOUND",
      `${what}: AWS KMS has no key "${keyId}" in this region (${name}): check AWS_KMS_KEY_IDS and AWS_REGION`,
      e,
    );
  if (DISABLED.has(name))
    return new SignerError(
      "SIGNER_KEY_DISABLED",
      `${what}: the key cannot sign now (${name}: disabled, pending deletion or its key store unavailable): enable it (aws kms enable-key) or cancel its deletion`,
      e,
    );
  if (CURVE.has(name))
    return new SignerError(
      "SIGNER_KEY_CURVE",
      `${what}: AWS KMS refused the key for ECDSA_SHA_256 signing (${name}): use an ECC_SECG_P256K1 SIGN_VERIFY key`,
      e,
    );
  if (name === "ThrottlingException" || name === "LimitExceededException")
    return new SignerError(
      "SIGNER_UNAVAILABLE",
      `${what}: AWS KMS throttled the request (${name}) after the SDK's retries: retry later, or raise the account's KMS request quota`,
      e,
    );
  // A service's answer may name the caller's account and role: only its name is repeated. A
  // failure on the way (no connection, no credentials found) has no such details.
  const detail = (e as { $fault?: string }).$fault === undefined && e instanceof Error ? `: ${e.message}` : "";
  return new SignerError("SIGNER_UNAVAILABLE", `${what}: AWS KMS could not be reached or failed (${name})${detail}`, e);
}
