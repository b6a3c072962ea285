/**
 * Where the deployer's key lives (README.md#signers): `--signer local` (the default) is the raw key
 * of --private-key / DEPLOYER_PRIVATE_KEY; `pkcs11`, `aws-kms` and `gcp-kms` keep the key in an HSM or
 * a KMS through @points/signers, the backends the API's executor signs with. Their settings are the
 * API's names with a DEPLOYER_ prefix, and name one key: the deployer sends from one address.
 */
import { readFileSync } from "node:fs";
import type { Provider, Signer } from "ethers";
import { ExecutorWallet, openAwsKms, openGcpKms, openPkcs11, type DigestSigner, type Pkcs11Lib } from "@points/signers";
import { walletFrom, type CommonOptions } from "./connection.js";
import { CliError, registerSecret } from "./errors.js";

export const SIGNER_BACKENDS = ["local", "pkcs11", "aws-kms", "gcp-kms"] as const;
export type SignerBackend = (typeof SIGNER_BACKENDS)[number];

/** The deployer's key, opened and checked; `connect` gives the ethers signer for a chain. */
export interface OpenedSigner {
  address: string;
  connect(provider: Provider): Signer;
}

/** Backends to close when the command ends (a PKCS#11 session, a KMS client's connections). */
const closers: (() => void)[] = [];

/** Closes every opened backend; the process ends with nothing held open. */
export function closeSigners(): void {
  for (const close of closers.splice(0)) close();
}

/**
 * Opens the key `--signer` names and signs one fixed digest with it, before any chain traffic: a
 * missing setting is refused (USAGE), and a refused PIN, a missing key, a key of another curve, or a
 * backend that answers with another key's signature stops the command with the backend's named
 * SIGNER_* error, so nothing is ever sent by a key that cannot sign.
 */
export async function openSigner(
  o: CommonOptions,
  env: NodeJS.ProcessEnv,
  seams: { pkcs11Lib?: Pkcs11Lib } = {},
): Promise<OpenedSigner> {
  const backend = (o.signer ?? "local") as SignerBackend;
  if (backend === "local") {
    const wallet = walletFrom(o);
    return { address: wallet.address, connect: (provider) => wallet.connect(provider) };
  }
  const settings = signerSettings(backend, o, env);
  const opened =
    settings.backend === "pkcs11"
      ? openPkcs11(settings.pkcs11, settings.timeoutMs, seams.pkcs11Lib)
      : settings.backend === "aws-kms"
        ? await openAwsKms(settings.awsKms, settings.timeoutMs)
        : await openGcpKms(settings.gcpKms, settings.timeoutMs);
  closers.push(() => opened.close());
  const key: DigestSigner = opened.signers[0]!;
  const wallet = new ExecutorWallet(key, settings.timeoutMs);
  await wallet.signDigest(new Uint8Array(32).fill(0x11));
  return { address: key.address, connect: (provider) => wallet.connect(provider) };
}

type Settings =
  | { backend: "pkcs11"; timeoutMs: number; pkcs11: Parameters<typeof openPkcs11>[0] }
  | { backend: "aws-kms"; timeoutMs: number; awsKms: Parameters<typeof openAwsKms>[0] }
  | { backend: "gcp-kms"; timeoutMs: number; gcpKms: Parameters<typeof openGcpKms>[0] };

/** The backend's settings from the environment, every problem reported at once. */
export function signerSettings(backend: Exclude<SignerBackend, "local">, o: CommonOptions, env: NodeJS.ProcessEnv) {
  const refused: string[] = [];
  const need = (name: string) => {
    const v = env[name];
    if (!v) refused.push(`${name} is required with --signer ${backend}`);
    return v ?? "";
  };
  if (o.privateKey)
    refused.push(
      `--private-key / DEPLOYER_PRIVATE_KEY must not be set with --signer ${backend} (the key is the ${backend === "pkcs11" ? "token's" : "KMS's"}): unset it`,
    );
  const timeoutText = env.DEPLOYER_SIGNER_TIMEOUT_MS ?? "10000";
  const timeoutMs = Number(timeoutText);
  if (!/^[0-9]{1,7}$/.test(timeoutText) || timeoutMs < 100 || timeoutMs > 600_000)
    refused.push(`DEPLOYER_SIGNER_TIMEOUT_MS must be a whole number of milliseconds between 100 and 600000`);
  let settings: Settings;
  if (backend === "pkcs11") {
    const module = need("DEPLOYER_PKCS11_MODULE");
    const keyLabel = need("DEPLOYER_PKCS11_KEY_LABEL");
    const tokenLabel = env.DEPLOYER_PKCS11_TOKEN_LABEL || undefined;
    const slotText = env.DEPLOYER_PKCS11_SLOT || undefined;
    if (!tokenLabel === !slotText)
      refused.push("set exactly one of DEPLOYER_PKCS11_TOKEN_LABEL or DEPLOYER_PKCS11_SLOT with --signer pkcs11");
    if (slotText !== undefined && !/^[0-9]{1,4}$/.test(slotText))
      refused.push("DEPLOYER_PKCS11_SLOT must be a slot index");
    if (!env.DEPLOYER_PKCS11_PIN === !env.DEPLOYER_PKCS11_PIN_FILE)
      refused.push("set exactly one of DEPLOYER_PKCS11_PIN or DEPLOYER_PKCS11_PIN_FILE with --signer pkcs11");
    let pin = env.DEPLOYER_PKCS11_PIN ?? "";
    if (env.DEPLOYER_PKCS11_PIN_FILE && !env.DEPLOYER_PKCS11_PIN) {
      try {
        pin = readFileSync(env.DEPLOYER_PKCS11_PIN_FILE, "utf8").trim();
        registerSecret(pin);
      } catch {
        refused.push(`DEPLOYER_PKCS11_PIN_FILE: ${env.DEPLOYER_PKCS11_PIN_FILE} cannot be read`);
      }
    }
    // A function, so the PIN never appears when the settings are serialised.
    const secret = pin;
    settings = {
      backend,
      timeoutMs,
      pkcs11: {
        module,
        tokenLabel,
        slot: slotText === undefined ? undefined : Number(slotText),
        pin: () => secret,
        keyLabels: [keyLabel],
      },
    };
  } else if (backend === "aws-kms") {
    const keyId = need("DEPLOYER_AWS_KMS_KEY_ID");
    const region = need("DEPLOYER_AWS_REGION");
    settings = {
      backend,
      timeoutMs,
      awsKms: { region, endpoint: env.DEPLOYER_AWS_KMS_ENDPOINT || undefined, keyIds: [keyId] },
    };
  } else {
    const keyVersion = need("DEPLOYER_GCP_KMS_KEY_VERSION");
    settings = {
      backend,
      timeoutMs,
      gcpKms: { keyVersions: [keyVersion], endpoint: env.DEPLOYER_GCP_KMS_ENDPOINT || undefined },
    };
  }
  if (refused.length > 0) throw new CliError(`signer settings: ${refused.join("; ")}`, "USAGE");
  return settings;
}
