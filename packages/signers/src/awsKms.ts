import type { KMSClient } from "@aws-sdk/client-kms";
import { derSignatureToRs, spkiAddress } from "./keyFormats.js";
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
 * Opens the executor keys kept in AWS KMS (packages/signers/README.md). Credentials are the
 * AWS SDK's default provider chain (environment, shared files, web identity, container or
 * instance role): this service never reads or logs them. Each key's public key is read once
 * (GetPublicKey); it must be ECC_SECG_P256K1 for SIGN_VERIFY (SIGNER_KEY_CURVE otherwise), and
 * its Ethereum address comes from the point in the SubjectPublicKeyInfo. KMS is then given
 * digests only (Sign, MessageType DIGEST, ECDSA_SHA_256) and answers a DER signature, which is
 * handed on as r || s; the seam makes s low and checks that it recovers (signer.ts). Every
 * call is bounded by `timeoutMs` (SIGNER_TIMEOUT) and aborted past it.
 */
export async function openAwsKms(cfg: AwsKmsConfig, timeoutMs: number): Promise<AwsKmsKeys> {
  // Loaded here, not at import: the SDK costs every process that starts without AWS KMS keys (a CLI command, a test).
  const { KMSClient, GetPublicKeyCommand, SignCommand } = await import("@aws-sdk/client-kms");
  const sdk = { GetPublicKeyCommand, SignCommand };
  const client = new KMSClient({
    region: cfg.region,
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    // The SDK retries throttling and dropped connections itself, inside our bound.
    maxAttempts: 3,
  });
  try {
    const signers: DigestSigner[] = [];
    for (const keyId of cfg.keyIds) signers.push(await keySigner(sdk, client, keyId, timeoutMs));
    return { signers, close: () => client.destroy() };
  } catch (e) {
    client.destroy();
    throw e;
  }
}

type Commands = Pick<typeof import("@aws-sdk/client-kms"), "GetPublicKeyCommand" | "SignCommand">;

async function keySigner(
  { GetPublicKeyCommand, SignCommand }: Commands,
  client: KMSClient,
  keyId: string,
  timeoutMs: number,
): Promise<DigestSigner> {
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
  const address = spkiAddress(
    { key: Buffer.from(out.PublicKey ?? []), format: "der", type: "spki" },
    `AWS KMS key "${keyId}"`,
  );
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
      return derSignatureToRs(signed.Signature, "AWS KMS");
    },
  };
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
