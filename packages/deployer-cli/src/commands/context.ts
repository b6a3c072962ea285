/** What every subcommand starts from: the chain, the manifest store and (when needed) the signer. */
import path from "node:path";
import type { Signer } from "ethers";
import { JsonFileStore, type DeploymentStore } from "@points/deployer";
import { connect, type CommonOptions, type Connection } from "../connection.js";
import { openSigner } from "../signers.js";
import { CliError } from "../errors.js";

export interface Context extends Connection {
  store: JsonFileStore;
  signer?: Signer;
  opts: CommonOptions;
}

export async function context(opts: CommonOptions, needsSigner: boolean): Promise<Context> {
  // Key first: a missing or malformed key, a refused PIN or a key the backend cannot sign with is
  // refused before any chain traffic.
  const wallet = needsSigner ? await openSigner(opts, process.env) : undefined;
  const conn = await connect(opts);
  const signer = wallet?.connect(conn.provider);
  return { ...conn, signer, store: new JsonFileStore(opts.manifestDir), opts };
}

/** Where JsonFileStore keeps a program's manifest. */
export function manifestFile(dir: string, chainId: bigint, brand: string): string {
  return path.join(dir, String(chainId), `${brand}.json`);
}

type ProgramOf<S extends DeploymentStore> = NonNullable<Awaited<ReturnType<S["getProgram"]>>>;

/** The brand's program from the manifest, or a message saying where it was looked for. */
export async function programFromManifest(ctx: Context, brand: string): Promise<ProgramOf<JsonFileStore>> {
  const program = await ctx.store.getProgram(ctx.chainId, brand);
  if (!program) {
    throw new CliError(
      `no program "${brand}" on chain ${ctx.chainId} in the manifests at ${ctx.opts.manifestDir} (deploy it first, or pass --manifest-dir)`,
    );
  }
  return program;
}
