import type { Provider } from "ethers";
import type { Logger } from "pino";
import type { Config } from "../config/env.js";
import {
  ExecutorWallet,
  localSigner,
  openAwsKms,
  openGcpKms,
  openPkcs11,
  SignerError,
  type DigestSigner,
  type Pkcs11Lib,
} from "@points/signers";

export interface SignerSeams {
  /** The PKCS#11 library the backend calls (tests wrap it). */
  pkcs11Lib?: Pkcs11Lib;
}

/**
 * The executor keys of this process, opened once at start (packages/api/README.md#keys): per
 * chain the executor key first (EXECUTOR_ROLE holder, ProgramFactory admin), then one more per
 * nonce lane. Each key signs one known digest at start, so a token that refuses, hangs or holds
 * the wrong key stops the start with a named error instead of failing the first task.
 */
export class ExecutorSigners {
  private constructor(
    private readonly config: Config,
    /** The token's (pkcs11) or KMS's keys, the same on every chain; undefined: local keys per chain. */
    private readonly shared: DigestSigner[] | undefined,
    private readonly onClose: () => void,
  ) {}

  static async open(config: Config, logger: Logger, seams: SignerSeams = {}): Promise<ExecutorSigners> {
    const s = config.signer;
    if (s.backend === "local") {
      if (config.production && config.chains.some((c) => config.executorKeys(c.chainId).length > 0))
        logger.warn(
          "executor keys are raw keys in the environment (EXECUTOR_ALLOW_LOCAL_KEY=true): use an HSM (EXECUTOR_SIGNER=pkcs11) or AWS KMS (EXECUTOR_SIGNER=aws-kms) in production",
        );
      const signers = new ExecutorSigners(config, undefined, () => undefined);
      for (const chain of config.chains) await signers.probe(signers.keys(chain.chainId));
      return signers;
    }
    const token =
      s.backend === "aws-kms"
        ? await openAwsKms(s.awsKms!, s.timeoutMs)
        : s.backend === "gcp-kms"
          ? await openGcpKms(s.gcpKms!, s.timeoutMs)
          : openPkcs11(s.pkcs11!, s.timeoutMs, seams.pkcs11Lib);
    const signers = new ExecutorSigners(config, token.signers, token.close);
    try {
      refuseSharedAddresses(token.signers);
      await signers.probe(token.signers);
    } catch (e) {
      token.close();
      throw e;
    }
    logger.info({ executors: token.signers.map((k) => ({ key: k.describe, address: k.address })) }, WHERE[s.backend]);
    return signers;
  }

  /** Every key of a chain, the executor key first; empty when this process holds none for it. */
  keys(chainId: number): DigestSigner[] {
    return this.shared ?? this.config.executorKeys(chainId).map(localSigner);
  }

  addresses(chainId: number): string[] {
    return this.keys(chainId).map((k) => k.address);
  }

  /** The ethers signer of a chain's lane (0: the executor key), reading the chain through `provider`. */
  wallet(chainId: number, lane: number, provider: Provider | null): ExecutorWallet {
    const key = this.keys(chainId)[lane];
    if (!key)
      throw new SignerError(
        "SIGNER_KEY_NOT_FOUND",
        `no executor key (lane ${lane}) for chain ${chainId}: see packages/api/README.md#keys`,
      );
    return new ExecutorWallet(key, this.config.signer.timeoutMs, provider);
  }

  close(): void {
    this.onClose();
  }

  private async probe(keys: DigestSigner[]): Promise<void> {
    const digest = new Uint8Array(32).fill(0x11);
    for (const key of keys) await new ExecutorWallet(key, this.config.signer.timeoutMs).signDigest(digest);
  }
}

const WHERE = {
  "aws-kms": "executor keys are in AWS KMS",
  "gcp-kms": "executor keys are in Google Cloud KMS",
  pkcs11: "executor keys are in the PKCS#11 token",
} as const;

/**
 * Two configured keys that are one key (an alias and its key id, two labels on one key pair) would be two nonce lanes
 * of one address, sending over each other's nonces: refused at start.
 */
function refuseSharedAddresses(keys: DigestSigner[]): void {
  for (const [i, k] of keys.entries()) {
    const j = keys.findIndex((o) => o.address === k.address);
    if (j !== i) {
      throw new SignerError(
        "SIGNER_KEY_DUPLICATE",
        `${keys[j]!.describe} and ${k.describe} are the same key (${k.address}): each nonce lane needs its own key; list each key once`,
      );
    }
  }
}
