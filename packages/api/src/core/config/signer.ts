import { readFileSync } from "node:fs";
import { z } from "zod";

/** projects/P/locations/L/keyRings/R/cryptoKeys/K/cryptoKeyVersions/V, as Google names a key version. */
export const KEY_VERSION_NAME =
  /^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/locations\/[a-z0-9-]{1,63}\/keyRings\/[A-Za-z0-9_-]{1,63}\/cryptoKeys\/[A-Za-z0-9_-]{1,63}\/cryptoKeyVersions\/[0-9]{1,19}$/;

/**
 * Where the executor keys live (packages/api/README.md#keys): "local" raw keys in the
 * environment (development; production only with EXECUTOR_ALLOW_LOCAL_KEY=true), "pkcs11"
 * keys inside an HSM, "aws-kms" keys in AWS KMS or "gcp-kms" keys in Google Cloud KMS; an HSM
 * and a KMS sign digests and never give the key out.
 */
export const SignerEnv = {
  EXECUTOR_SIGNER: z
    .enum(["local", "pkcs11", "aws-kms", "gcp-kms"], { error: "must be local, pkcs11, aws-kms or gcp-kms" })
    .default("local"),
  EXECUTOR_ALLOW_LOCAL_KEY: z.enum(["true", "false"]).default("false"),
  /** How long one signature may take before SIGNER_TIMEOUT (a token that hangs must not hang the engine). */
  SIGNER_TIMEOUT_MS: z
    .string()
    .regex(/^[0-9]{1,7}$/, "must be a whole number of milliseconds")
    .transform(Number)
    .refine((n) => n >= 100 && n <= 600_000, "must be between 100 and 600000")
    .default(10_000),
  PKCS11_MODULE: z.string().optional(),
  PKCS11_TOKEN_LABEL: z.string().optional(),
  PKCS11_SLOT: z
    .string()
    .regex(/^[0-9]{1,4}$/, "must be a slot index")
    .transform(Number)
    .optional(),
  /** The user PIN; never logged. PKCS11_PIN_FILE is preferred (a mounted secret). */
  PKCS11_PIN: z.string().optional(),
  PKCS11_PIN_FILE: z.string().optional(),
  /** CKA_LABEL of each executor key, comma-separated: the executor key first, then more nonce lanes. */
  PKCS11_KEY_LABELS: z
    .string()
    .regex(/^[^,]+(,[^,]+){0,15}$/, "must be 1 to 16 comma-separated key labels")
    .optional(),
  /**
   * Each executor key in AWS KMS, comma-separated: the executor key first, then more nonce lanes.
   * AWS's credentials are never settings of ours: the AWS SDK's default provider chain finds them.
   */
  AWS_KMS_KEY_IDS: z
    .string()
    .regex(
      /^[A-Za-z0-9:/_.-]+(,[A-Za-z0-9:/_.-]+){0,15}$/,
      "must be 1 to 16 comma-separated KMS key ids, key ARNs or aliases (alias/executor), without spaces",
    )
    .optional(),
  /** Read by the AWS SDK as well; checked only when EXECUTOR_SIGNER=aws-kms. */
  AWS_REGION: z.string().optional(),
  /** A VPC endpoint of KMS (or a test's fake); unset: the region's public endpoint. */
  AWS_KMS_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error:
        "must be the http(s):// URL of a KMS endpoint, e.g. a VPC endpoint https://vpce-0abc-1x2y.kms.eu-west-1.vpce.amazonaws.com (https:// in production), or unset",
    })
    .optional(),
  /**
   * Each executor key version in Google Cloud KMS (full resource names), comma-separated: the
   * executor key first, then more nonce lanes. Google's credentials are never settings of ours:
   * the SDK's Application Default Credentials find them.
   */
  GCP_KMS_KEY_VERSIONS: z
    .string()
    .regex(
      /^[^,\s]+(,[^,\s]+){0,15}$/,
      "must be 1 to 16 comma-separated key version names (projects/P/locations/L/keyRings/R/cryptoKeys/K/cryptoKeyVersions/V), without spaces",
    )
    .optional(),
  /** A private endpoint of Cloud KMS (or a test's stand-in); unset: cloudkms.googleapis.com. */
  GCP_KMS_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error:
        "must be the http(s):// URL of a Cloud KMS endpoint, e.g. https://cloudkms.googleapis.com or a Private Service Connect endpoint (https:// in production), or unset",
    })
    .optional(),
};

/** An AWS region code (eu-west-1, us-gov-west-1, ap-southeast-4). */
const AWS_REGION = /^[a-z]{2,}(-[a-z]+)+-[0-9]{1,2}$/;

type SignerVars = z.output<z.ZodObject<typeof SignerEnv>> & {
  EXECUTOR_PRIVATE_KEY?: string;
  EXECUTOR_PRIVATE_KEYS?: string;
};

/** The signer settings, checked together; every problem goes to `refused`. */
export function signerConfig(e: SignerVars, production: boolean, refused: string[]) {
  const timeoutMs = e.SIGNER_TIMEOUT_MS;
  const allowLocal = e.EXECUTOR_ALLOW_LOCAL_KEY === "true";
  if (e.EXECUTOR_SIGNER === "local") {
    if (production && (e.EXECUTOR_PRIVATE_KEY || e.EXECUTOR_PRIVATE_KEYS) && !allowLocal)
      refused.push(
        "EXECUTOR_PRIVATE_KEY: raw executor keys are refused when NODE_ENV=production: set EXECUTOR_SIGNER=pkcs11 (an HSM) or aws-kms (AWS KMS), or opt in with EXECUTOR_ALLOW_LOCAL_KEY=true",
      );
    return {
      backend: "local" as const,
      allowLocal,
      timeoutMs,
      pkcs11: undefined,
      awsKms: undefined,
      gcpKms: undefined,
    };
  }
  if (e.EXECUTOR_SIGNER === "aws-kms") return awsKmsConfig(e, production, refused, allowLocal, timeoutMs);
  if (e.EXECUTOR_SIGNER === "gcp-kms") return gcpKmsConfig(e, production, refused, allowLocal, timeoutMs);
  const missing = (name: string) => refused.push(`${name}: is required when EXECUTOR_SIGNER=pkcs11`);
  if (!e.PKCS11_MODULE) missing("PKCS11_MODULE");
  if (e.PKCS11_TOKEN_LABEL === undefined && e.PKCS11_SLOT === undefined)
    refused.push(
      "PKCS11_TOKEN_LABEL: one of PKCS11_TOKEN_LABEL or PKCS11_SLOT is required when EXECUTOR_SIGNER=pkcs11",
    );
  if (!e.PKCS11_KEY_LABELS) missing("PKCS11_KEY_LABELS");
  if (!e.PKCS11_PIN === !e.PKCS11_PIN_FILE)
    refused.push("PKCS11_PIN: set exactly one of PKCS11_PIN or PKCS11_PIN_FILE when EXECUTOR_SIGNER=pkcs11");
  if (e.EXECUTOR_PRIVATE_KEY || e.EXECUTOR_PRIVATE_KEYS)
    refused.push("EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=pkcs11 (the keys are the token's)");
  let pin: string | undefined = e.PKCS11_PIN;
  if (e.PKCS11_PIN_FILE && !e.PKCS11_PIN) {
    try {
      pin = readFileSync(e.PKCS11_PIN_FILE, "utf8").trim();
    } catch {
      refused.push(`PKCS11_PIN_FILE: ${e.PKCS11_PIN_FILE} cannot be read`);
    }
  }
  const secret = pin ?? "";
  return {
    backend: "pkcs11" as const,
    allowLocal,
    timeoutMs,
    pkcs11: {
      module: e.PKCS11_MODULE ?? "",
      tokenLabel: e.PKCS11_TOKEN_LABEL,
      slot: e.PKCS11_SLOT,
      /** A function, so the PIN never appears when the configuration is serialised. */
      pin: () => secret,
      keyLabels: e.PKCS11_KEY_LABELS?.split(",") ?? [],
    },
    awsKms: undefined,
    gcpKms: undefined,
  };
}

function awsKmsConfig(e: SignerVars, production: boolean, refused: string[], allowLocal: boolean, timeoutMs: number) {
  const region = e.AWS_REGION;
  if (!e.AWS_KMS_KEY_IDS)
    refused.push(
      "AWS_KMS_KEY_IDS: is required when EXECUTOR_SIGNER=aws-kms (the executor key's id, ARN or alias first, then one per extra lane)",
    );
  if (!region)
    refused.push("AWS_REGION: is required when EXECUTOR_SIGNER=aws-kms (the region of the keys, e.g. eu-west-1)");
  else if (!AWS_REGION.test(region))
    refused.push(`AWS_REGION: "${region}" is not an AWS region code: set the region of the keys, e.g. eu-west-1`);
  if (production && e.AWS_KMS_ENDPOINT?.startsWith("http:"))
    refused.push(
      "AWS_KMS_ENDPOINT: must be https:// when NODE_ENV=production (a KMS VPC endpoint's https:// URL), or unset for the region's public endpoint",
    );
  const keyIds = e.AWS_KMS_KEY_IDS?.split(",") ?? [];
  const twice = keyIds.find((k, i) => keyIds.indexOf(k) !== i);
  if (twice)
    refused.push(`AWS_KMS_KEY_IDS: "${twice}" is listed twice: each lane needs its own key (list each key once)`);
  if (e.EXECUTOR_PRIVATE_KEY || e.EXECUTOR_PRIVATE_KEYS)
    refused.push(
      "EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=aws-kms (the keys are in AWS KMS): unset it",
    );
  return {
    backend: "aws-kms" as const,
    allowLocal,
    timeoutMs,
    pkcs11: undefined,
    awsKms: { region: region ?? "", endpoint: e.AWS_KMS_ENDPOINT, keyIds },
    gcpKms: undefined,
  };
}

function gcpKmsConfig(e: SignerVars, production: boolean, refused: string[], allowLocal: boolean, timeoutMs: number) {
  if (!e.GCP_KMS_KEY_VERSIONS)
    refused.push(
      "GCP_KMS_KEY_VERSIONS: is required when EXECUTOR_SIGNER=gcp-kms (the executor key version's full name first, then one per extra lane)",
    );
  const keyVersions = e.GCP_KMS_KEY_VERSIONS?.split(",") ?? [];
  for (const name of keyVersions.filter((n) => !KEY_VERSION_NAME.test(n)))
    refused.push(
      `GCP_KMS_KEY_VERSIONS: "${name}" is not a key version name: give projects/PROJECT/locations/LOCATION/keyRings/RING/cryptoKeys/KEY/cryptoKeyVersions/N (gcloud kms keys versions list --key KEY --keyring RING --location LOCATION)`,
    );
  const twice = keyVersions.find((k, i) => keyVersions.indexOf(k) !== i);
  if (twice)
    refused.push(
      `GCP_KMS_KEY_VERSIONS: "${twice}" is listed twice: each lane needs its own key (list each key version once)`,
    );
  if (production && e.GCP_KMS_ENDPOINT?.startsWith("http:"))
    refused.push(
      "GCP_KMS_ENDPOINT: must be https:// when NODE_ENV=production (a Cloud KMS endpoint's https:// URL), or unset for cloudkms.googleapis.com",
    );
  if (e.EXECUTOR_PRIVATE_KEY || e.EXECUTOR_PRIVATE_KEYS)
    refused.push(
      "EXECUTOR_PRIVATE_KEY: must not be set when EXECUTOR_SIGNER=gcp-kms (the keys are in Google Cloud KMS): unset it",
    );
  return {
    backend: "gcp-kms" as const,
    allowLocal,
    timeoutMs,
    pkcs11: undefined,
    awsKms: undefined,
    gcpKms: { keyVersions, endpoint: e.GCP_KMS_ENDPOINT },
  };
}

export type SignerConfig = ReturnType<typeof signerConfig>;
