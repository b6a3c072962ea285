/**
 * Turns any failure into ONE readable line (and an exit code), never leaking the signer key.
 */
import { DeployerError } from "@points/deployer";
import { isRpcUnreachable } from "@points/contracts/program";
import { SignerError } from "@points/signers";

/** A failure the CLI itself detects (bad flags, unreadable config, unreachable RPC, bad key). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string = "USAGE",
  ) {
    super(message);
  }
}

const HINTS: Record<string, string> = {
  INVALID_CONFIG: "invalid configuration",
  BRAND_TAKEN: "brand already taken",
  BRAND_EXISTS: "brand already exists on this chain",
  PROGRAM_NOT_FOUND: "no such program on chain",
  INSUFFICIENT_FUNDS: "insufficient funds",
  CHAIN_UNAVAILABLE: "chain unavailable",
  WRONG_KEY: "wrong key",
  VERIFY_FAILED: "verification failed",
  UNSAFE_UPGRADE: "unsafe upgrade refused",
  TOO_EARLY: "too early",
  TRANSACTION_FAILED: "transaction failed",
  ARTIFACTS_MISSING: "contract artifacts missing",
  GAS_CAP: "over the gas cap",
};

/** The named failures of a key in an HSM or a KMS (@points/signers): a key problem, as WRONG_KEY is. */
const SIGNER_CODES = [
  "SIGNER_UNAVAILABLE",
  "SIGNER_LOGIN_FAILED",
  "SIGNER_KEY_NOT_FOUND",
  "SIGNER_KEY_CURVE",
  "SIGNER_KEY_DISABLED",
  "SIGNER_KEY_DUPLICATE",
  "SIGNER_TIMEOUT",
  "SIGNER_INTEGRITY",
  "SIGNER_ADDRESS_MISMATCH",
];

/**
 * Exit codes: 1 unexpected, 2 usage/config, 3 chain unreachable, 4 key/funds (and every SIGNER_*
 * failure of an HSM or KMS key), 5 refused by chain
 * state, 6 the brand already has a program on this chain under another release or manifest.
 */
const EXIT: Record<string, number> = {
  USAGE: 2,
  INVALID_CONFIG: 2,
  CHAIN_UNAVAILABLE: 3,
  WRONG_KEY: 4,
  INSUFFICIENT_FUNDS: 4,
  BRAND_TAKEN: 5,
  BRAND_EXISTS: 6,
  PROGRAM_NOT_FOUND: 5,
  VERIFY_FAILED: 5,
  UNSAFE_UPGRADE: 5,
  TOO_EARLY: 5,
  TRANSACTION_FAILED: 5,
  ARTIFACTS_MISSING: 2,
  GAS_CAP: 2,
  ...Object.fromEntries(SIGNER_CODES.map((c) => [c, 4])),
};

const registered: string[] = [];

/** Remembers a secret so that every printed error line is scrubbed of it. */
export function registerSecret(secret: string | undefined): void {
  if (secret && !registered.includes(secret)) registered.push(secret);
}

/** Every secret from argv (--private-key X / --private-key=X) and the environment. */
export function registerSecretsFrom(argv: string[], env: NodeJS.ProcessEnv): void {
  registerSecret(env.DEPLOYER_PRIVATE_KEY);
  registerSecret(env.POINTS_API_KEY);
  registerSecret(env.DEPLOYER_PKCS11_PIN);
  argv.forEach((arg, i) => {
    if (arg === "--private-key") registerSecret(argv[i + 1]);
    else if (arg.startsWith("--private-key=")) registerSecret(arg.slice("--private-key=".length));
  });
}

/** `text` without any registered secret. */
export function scrub(text: string): string {
  return redact(text, registered);
}

/** Replaces every occurrence of `secrets` (with or without 0x) by [redacted]. */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    const bare = s.replace(/^0x/i, "");
    if (bare.length < 8) continue;
    out = out.split(new RegExp(`(0x)?${bare}`, "gi")).join("[redacted]");
  }
  return out;
}

interface Described {
  code: string;
  message: string;
}

/** Code and message of any error: ours, the library's, or an ethers/network error underneath. */
export function describe(err: unknown): Described {
  if (err instanceof CliError) return { code: err.code, message: err.message };
  if (err instanceof SignerError) return { code: err.code, message: err.message };
  const e = err as { code?: unknown; message?: unknown; shortMessage?: unknown; name?: unknown };
  if (err instanceof DeployerError || (e?.name === "DeployerError" && typeof e.code === "string")) {
    const code = String(e.code);
    const hint = HINTS[code];
    const msg = String(e.message);
    return { code, message: hint && !msg.toLowerCase().startsWith(hint) ? `${hint}: ${msg}` : msg };
  }
  // ethers errors that escaped the library (or happened before it was called).
  if (e?.code === "INSUFFICIENT_FUNDS") {
    return { code: "INSUFFICIENT_FUNDS", message: "insufficient funds: the signer cannot pay for gas" };
  }
  const text = String(e?.shortMessage ?? e?.message ?? err);
  if (isRpcUnreachable(err)) {
    return { code: "CHAIN_UNAVAILABLE", message: `chain unavailable: ${text}` };
  }
  return { code: "ERROR", message: text };
}

/** The one line printed on failure and the process exit code. */
export function formatFailure(err: unknown): { line: string; exitCode: number } {
  const { code, message } = describe(err);
  const oneLine = message.replace(/\s*\n\s*/g, " ").trim();
  return { line: scrub(`error [${code}]: ${oneLine}`), exitCode: EXIT[code] ?? 1 };
}
