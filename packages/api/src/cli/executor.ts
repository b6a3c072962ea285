import type { Command } from "commander";
import { formatEther, getAddress, isAddress } from "ethers";
import type { DigestSigner } from "@points/signers";
import { pino } from "pino";
import { loadConfig, type Config } from "../core/config/env.js";
import { openDb } from "../core/db/db.js";
import { migrate } from "../core/db/migrations.js";
import { ChainClient } from "../core/chain/client.js";
import { ExecutorSigners } from "../core/signer/executors.js";
import { EXIT, retire, rotate, type RotationIo } from "../core/executor/rotation.js";

/**
 * Opens the chain and the executor keys of the EXECUTOR_* settings, then runs `run` with the chain's keys (the
 * executor key first, then the lanes); its exit code becomes the process's. An unknown chain exits EXIT.USAGE.
 */
async function withKeys(
  chainId: string,
  run: (chain: ChainClient, keys: DigestSigner[], signers: ExecutorSigners, config: Config) => Promise<number>,
): Promise<void> {
  const config = loadConfig();
  const chainConfig = config.chains.find((c) => String(c.chainId) === chainId);
  if (!chainConfig) return usage(`chain ${chainId} is not in CHAINS`);
  // Only warnings: the command's answer is its output.
  const signers = await ExecutorSigners.open(config, pino({ level: "warn" }, pino.destination(2)));
  const chain = new ChainClient(chainConfig, config.rpcTimeoutMs);
  try {
    const onChain = (await chain.provider.getNetwork()).chainId;
    if (onChain !== BigInt(chainId)) throw new Error(`the RPC of chain ${chainId} answers chain id ${onChain}`);
    process.exitCode = await run(chain, signers.keys(chainConfig.chainId), signers, config);
  } finally {
    chain.destroy();
    signers.close();
  }
}

/** `keys`: the addresses of the EXECUTOR settings' keys for the chain, the executor key first, then the lanes. */
type Run = (io: RotationIo, keys: string[]) => Promise<number>;

/** withKeys, with the database migrated and the keys as wallets: the rotation's inputs. */
function withRotation(chainId: string, proposalOwner: string | undefined, run: Run): Promise<void> {
  return withKeys(chainId, async (chain, keys, signers, config) => {
    const db = await openDb(config);
    try {
      await migrate(db);
      const wallets = keys.map((_, i) => signers.wallet(chain.config.chainId, i, chain.provider));
      const io: RotationIo = {
        db,
        chain,
        wallets,
        proposalOwner,
        proposalCap: config.safe.openProposalsPerSafe,
        out: (line) => process.stdout.write(`${line}\n`),
        err: (line) => process.stderr.write(`${line}\n`),
      };
      return await run(
        io,
        keys.map((k) => k.address),
      );
    } finally {
      await db.close();
    }
  });
}

function usage(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = EXIT.USAGE;
}

const address = (value: string, option: string): string | undefined => {
  if (isAddress(value)) return getAddress(value);
  usage(`${option}: ${value} is not an address`);
  return undefined;
};

/** `points-api executor rotate|retire` (packages/api/README.md#rotating-the-executor-key). */
export function executorCommands(program: Command): void {
  const executor = program
    .command("executor")
    .description("hand the executor's roles on a chain to a new address, then take them from the old one");
  executor
    .command("keys")
    .description(
      "print the address and balance of each key of the EXECUTOR settings (a new key's address before a rotation)",
    )
    .requiredOption("--chain <chainId>", "the chain")
    .action((o: { chain: string }) =>
      withKeys(o.chain, async (chain, keys) => {
        for (const [i, key] of keys.entries()) {
          const balance = await chain.provider.getBalance(key.address);
          const role = i === 0 ? "executor" : `lane ${i}`;
          process.stdout.write(
            `${role}: ${key.address} (${key.describe}), ${formatEther(balance)} native (${balance} wei) on chain ${o.chain}\n`,
          );
        }
        if (keys.length === 0) process.stderr.write(`no executor key for chain ${o.chain}\n`);
        return keys.length === 0 ? EXIT.USAGE : EXIT.OK;
      }),
    );
  executor
    .command("rotate")
    .description("grant --to every role the executor holds on the chain's Factories and ProgramFactories")
    .requiredOption("--chain <chainId>", "the chain")
    .requiredOption("--to <address>", "the new executor address")
    .option(
      "--from <address>",
      "the executor or lane key whose roles are copied (default: the configured executor key)",
    )
    .option("--proposal-owner <owner>", "file Safe proposals as this API key id or session:<email>")
    .action(async (o: { chain: string; to: string; from?: string; proposalOwner?: string }) => {
      const to = address(o.to, "--to");
      const given = o.from === undefined ? undefined : address(o.from, "--from");
      if (!to || (o.from !== undefined && !given)) return;
      await withRotation(o.chain, o.proposalOwner, async (io, [configured]) => {
        const from = given ?? configured;
        if (!from) return (usage(`no executor key for chain ${o.chain}: pass --from`), EXIT.USAGE);
        if (from === to) return (usage(`--to ${to} is the executor already`), EXIT.USAGE);
        return rotate(io, from, to);
      });
    });
  executor
    .command("retire")
    .description(
      "revoke --old's roles once the configured keys hold every one of them (the executor key's, or a lane key's: every other key's)",
    )
    .requiredOption("--chain <chainId>", "the chain")
    .requiredOption("--old <address>", "the executor or lane key address to retire")
    .option("--proposal-owner <owner>", "file Safe proposals as this API key id or session:<email>")
    .action(async (o: { chain: string; old: string; proposalOwner?: string }) => {
      const old = address(o.old, "--old");
      if (!old) return;
      await withRotation(o.chain, o.proposalOwner, async (io, keys) => {
        if (!keys[0]) return (usage(`no executor key for chain ${o.chain}`), EXIT.USAGE);
        if (keys[0] === old)
          return (usage(`${old} is still the configured executor key: switch the EXECUTOR settings first`), EXIT.USAGE);
        return retire(io, old, keys);
      });
    });
}
