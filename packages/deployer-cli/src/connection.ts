/**
 * Options every subcommand shares (RPC, key, manifest folder, debug) and the provider/signer
 * built from them (a key in an HSM or a KMS: signers.ts). The key is read from the flag or DEPLOYER_PRIVATE_KEY and never printed.
 */
import { Command, Option } from "commander";
import { JsonRpcProvider, Network, Wallet, type Provider } from "ethers";
import { isDevChainId } from "@points/contracts/program";
import { rpcChainId } from "@points/contracts/program";
import { CliError, registerSecret } from "./errors.js";

export interface CommonOptions {
  rpcUrl: string;
  privateKey?: string;
  /** Where the key lives: local (--private-key), pkcs11, aws-kms or gcp-kms (signers.ts). */
  signer?: string;
  manifestDir: string;
  debug?: boolean;
  dev?: boolean;
  contractsDir?: string;
}

export const DEFAULT_RPC_URL = "http://127.0.0.1:8545";

/** Adds the shared options to `cmd`. */
export function withCommonOptions(cmd: Command, opts: { signer: boolean } = { signer: true }): Command {
  cmd.addOption(
    new Option("--rpc-url <url>", "JSON-RPC endpoint of the chain").env("RPC_URL").default(DEFAULT_RPC_URL),
  );
  if (opts.signer) {
    cmd.addOption(
      new Option("--private-key <hex>", "signer key (prefer the env variable; never printed)").env(
        "DEPLOYER_PRIVATE_KEY",
      ),
    );
    cmd.addOption(
      new Option(
        "--signer <backend>",
        "where the signer key lives: local (--private-key), pkcs11 (an HSM), aws-kms or gcp-kms; settings in DEPLOYER_* variables (README: Signers)",
      )
        .choices(["local", "pkcs11", "aws-kms", "gcp-kms"])
        .env("DEPLOYER_SIGNER")
        .default("local"),
    );
  }
  cmd.addOption(
    new Option("--manifest-dir <dir>", "folder of the JSON manifests").env("MANIFEST_DIR").default("./manifests"),
  );
  cmd.addOption(
    new Option("--contracts-dir <dir>", "another build of @points/contracts (its artifacts and build-info)").env(
      "CONTRACTS_DIR",
    ),
  );
  cmd.option("--dev", "treat the chain as a development chain (implied for chain ids 31337 and 1337)");
  cmd.option("--debug", "print stack traces on failure");
  return cmd;
}

export interface Connection {
  provider: Provider;
  chainId: bigint;
  dev: boolean;
  url: string;
}

/** Connects to the RPC, failing fast with a readable message when nothing answers. */
export async function connect(o: CommonOptions): Promise<Connection> {
  let parsed: URL;
  try {
    parsed = new URL(o.rpcUrl);
  } catch {
    throw new CliError(`--rpc-url is not a URL: ${o.rpcUrl}`);
  }
  // Credentials in a URL (user:pass@ or ?key=) stay out of messages.
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  const chainId = await rpcChainId(o.rpcUrl, 5000);
  if (chainId === undefined) {
    throw new CliError(
      `cannot reach the chain at ${shown}: is the node running? (--rpc-url / RPC_URL)`,
      "CHAIN_UNAVAILABLE",
    );
  }
  // A static network stops ethers from retrying network detection forever on a dead RPC. No
  // response cache: ethers reuses identical reads for 250 ms, so a nonce read right after a
  // mined transaction would be stale. Receipts polled every 250 ms, not ethers' default 4 s.
  const provider = new JsonRpcProvider(o.rpcUrl, Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 250,
  });
  return { provider, chainId, dev: Boolean(o.dev) || isDevChainId(chainId), url: shown };
}

/** The signer from --private-key / DEPLOYER_PRIVATE_KEY (checked without any network traffic). */
export function walletFrom(o: CommonOptions): Wallet {
  if (!o.privateKey) {
    throw new CliError("no signer key: pass --private-key or set DEPLOYER_PRIVATE_KEY", "WRONG_KEY");
  }
  registerSecret(o.privateKey);
  const key = o.privateKey.startsWith("0x") ? o.privateKey : `0x${o.privateKey}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new CliError("the signer key is not a 32-byte hex private key", "WRONG_KEY");
  }
  try {
    return new Wallet(key);
  } catch {
    throw new CliError("the signer key is not a valid secp256k1 private key", "WRONG_KEY");
  }
}
