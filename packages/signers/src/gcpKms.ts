import type { KeyManagementServiceClient } from "@google-cloud/kms";
import { crc32c } from "./crc32c.js";
import { SignerError, withinTimeout } from "./errors.js";
import { derSignatureToRs, spkiAddress } from "./keyFormats.js";
import type { DigestSigner } from "./signer.js";

export interface GcpKmsConfig {
  /** Full resource name of each executor key version (the first is the executor key). */
  keyVersions: string[];
  /** A private endpoint (or a test's stand-in); undefined: cloudkms.googleapis.com. */
  endpoint?: string;
}

export interface GcpKmsKeys {
  signers: DigestSigner[];
  close(): void;
}

const ALGORITHM = "EC_SIGN_SECP256K1_SHA256";

/**
 * Opens the executor keys kept in Google Cloud KMS (packages/signers/README.md) through
 * Google's SDK on its REST transport (HTTP/1.1 JSON, the transport the tests drive). Credentials
 * are the SDK's Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's
 * application-default login, the attached service account): this service never reads or logs
 * them. Each key version's public key is read once (GetPublicKey): its algorithm must be
 * EC_SIGN_SECP256K1_SHA256 (SIGNER_KEY_CURVE otherwise) and the Ethereum address comes from its
 * PEM. KMS is then given digests only (AsymmetricSign with `digest.sha256`) and answers a DER
 * signature, handed on as r || s. Every request and answer carries the CRC32C checks Google
 * documents (a mismatch is SIGNER_INTEGRITY, and the signature is not used); every call is
 * bounded by `timeoutMs` (SIGNER_TIMEOUT).
 */
export async function openGcpKms(cfg: GcpKmsConfig, timeoutMs: number): Promise<GcpKmsKeys> {
  // Loaded here, not at import: Google's SDK (gax, gRPC) is most of a CLI command's start-up when no key is in Cloud KMS.
  const { KeyManagementServiceClient } = await import("@google-cloud/kms");
  const client = new KeyManagementServiceClient({ fallback: true, ...endpointOptions(cfg.endpoint) });
  try {
    const signers: DigestSigner[] = [];
    for (const name of cfg.keyVersions) signers.push(await keySigner(client, name, timeoutMs));
    // Closing drops idle connections; a failure then has nothing left to release.
    return { signers, close: () => void client.close().catch(() => undefined) };
  } catch (e) {
    await client.close().catch(() => undefined);
    throw e;
  }
}

function endpointOptions(endpoint: string | undefined) {
  if (!endpoint) return {};
  const url = new URL(endpoint);
  const protocol = url.protocol.slice(0, -1);
  return { apiEndpoint: url.hostname, port: Number(url.port || (protocol === "https" ? 443 : 80)), protocol };
}

async function keySigner(client: KeyManagementServiceClient, name: string, timeoutMs: number): Promise<DigestSigner> {
  const who = `Google Cloud KMS key version "${name}"`;
  const [key] = await kmsCall(`reading ${who}`, name, timeoutMs, (timeout) =>
    client.getPublicKey({ name }, { timeout }),
  );
  if (key.algorithm !== ALGORITHM)
    throw new SignerError(
      "SIGNER_KEY_CURVE",
      `${who} is ${String(key.algorithm || "of no algorithm")}, not ${ALGORITHM}; Ethereum needs secp256k1: create the key with gcloud kms keys create KEY --keyring RING --location LOCATION --purpose asymmetric-signing --default-algorithm ec-sign-secp256k1-sha256 --protection-level hsm`,
    );
  const pem = key.pem ?? "";
  if (key.name !== name || !crcMatches(Buffer.from(pem, "utf8"), key.pemCrc32c?.value))
    throw new SignerError(
      "SIGNER_INTEGRITY",
      `reading ${who}: the public key failed its integrity check (name or pemCrc32c does not match): it was corrupted on the way; nothing was signed`,
    );
  const address = spkiAddress({ key: pem, format: "pem" }, who);
  return {
    address,
    describe: `gcp-kms:${name}`,
    signDigest: async (digest) => {
      const [signed] = await kmsCall(`signing with ${who}`, name, timeoutMs, (timeout) =>
        client.asymmetricSign(
          { name, digest: { sha256: digest }, digestCrc32c: { value: crc32c(digest) } },
          { timeout },
        ),
      );
      const signature = signed.signature ? Buffer.from(signed.signature as Uint8Array) : Buffer.alloc(0);
      // Google's documented checks, all before the signature is used: KMS saw the digest we sent
      // (verifiedDigestCrc32c), the answer is for this key version, and the signature arrived intact.
      if (!signed.verifiedDigestCrc32c)
        throw new SignerError(
          "SIGNER_INTEGRITY",
          `signing with ${who}: KMS did not verify the digest's CRC32C (verifiedDigestCrc32c false): the request was corrupted on the way; the signature is not used`,
        );
      if (signed.name !== name || !crcMatches(signature, signed.signatureCrc32c?.value))
        throw new SignerError(
          "SIGNER_INTEGRITY",
          `signing with ${who}: the signature failed its integrity check (name or signatureCrc32c does not match): it was corrupted on the way; the signature is not used`,
        );
      return derSignatureToRs(signature, "Google Cloud KMS");
    },
  };
}

/** An Int64Value from the SDK is a decimal string (or a number), per its JSON conversion. */
function crcMatches(data: Uint8Array, value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  return BigInt(value as string | number) === BigInt(crc32c(data));
}

/**
 * One KMS request within `timeoutMs` (the SDK's own deadline, and ours around it), its failure
 * named. Google's message stays in `cause` (it may name the project and the caller's account);
 * ours names the key version and the fix.
 */
async function kmsCall<T>(what: string, name: string, timeoutMs: number, call: (timeout: number) => Promise<T>) {
  try {
    return await withinTimeout(call(timeoutMs), timeoutMs, what);
  } catch (e) {
    throw e instanceof SignerError ? e : kmsError(what, name, timeoutMs, e);
  }
}

/** gRPC status codes, which the SDK gives its errors on either transport. */
const STATUS: Record<number, string> = {
  1: "CANCELLED",
  2: "UNKNOWN",
  3: "INVALID_ARGUMENT",
  4: "DEADLINE_EXCEEDED",
  5: "NOT_FOUND",
  7: "PERMISSION_DENIED",
  8: "RESOURCE_EXHAUSTED",
  9: "FAILED_PRECONDITION",
  13: "INTERNAL",
  14: "UNAVAILABLE",
  16: "UNAUTHENTICATED",
};

function kmsError(what: string, name: string, timeoutMs: number, e: unknown): SignerError {
  const code = (e as { code?: unknown }).code;
  const status = typeof code === "number" ? (STATUS[code] ?? `status ${code}`) : undefined;
  if (status === "DEADLINE_EXCEEDED")
    return new SignerError("SIGNER_TIMEOUT", `${what}: no answer within ${timeoutMs} ms`, e);
  if (status === "UNAUTHENTICATED" || status === "PERMISSION_DENIED")
    return new SignerError(
      "SIGNER_LOGIN_FAILED",
      `${what}: Google refused the credentials or their permission (${status}): the Application Default Credentials must be allowed cloudkms.cryptoKeyVersions.viewPublicKey and cloudkms.cryptoKeyVersions.useToSign on the key (roles/cloudkms.signerVerifier)`,
      e,
    );
  if (status === "NOT_FOUND")
    return new SignerError(
      "SIGNER_KEY_NOT_FOUND",
      `${what}: Google Cloud KMS has no key version "${name}" (${status}): check GCP_KMS_KEY_VERSIONS`,
      e,
    );
  if (status === "FAILED_PRECONDITION")
    return new SignerError(
      "SIGNER_KEY_DISABLED",
      `${what}: the key version cannot sign now (${status}: disabled, scheduled for destruction or destroyed): enable it (gcloud kms keys versions enable) or restore it`,
      e,
    );
  if (status === "RESOURCE_EXHAUSTED")
    return new SignerError(
      "SIGNER_UNAVAILABLE",
      `${what}: Google Cloud KMS throttled the request (${status}) after the SDK's retries: retry later, or raise the project's KMS quota`,
      e,
    );
  // Without a status the failure happened on the way (no connection, no credentials found):
  // its message names no account.
  if (status === undefined) {
    const detail = e instanceof Error ? e.message : String(e);
    const login = /default credentials|Could not load the default credentials/i.test(detail);
    return new SignerError(
      login ? "SIGNER_LOGIN_FAILED" : "SIGNER_UNAVAILABLE",
      login
        ? `${what}: Google's Application Default Credentials found none (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, an attached service account): give the service one of them`
        : `${what}: Google Cloud KMS could not be reached: ${detail}`,
      e,
    );
  }
  return new SignerError(
    "SIGNER_UNAVAILABLE",
    `${what}: Google Cloud KMS could not be reached or failed (${status})`,
    e,
  );
}
