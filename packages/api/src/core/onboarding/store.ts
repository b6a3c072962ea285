import { ManifestStore, releaseKeyPrefix, type ManifestKind } from "@points/deployer";
import { stageEnded } from "../metrics/index.js";
import type { Db } from "../db/db.js";

/**
 * The deployer's store, in the service's database: one row per manifest (a program's stages and
 * record, or a release). Stages are written before and after every transaction, so a resumed
 * task finds what an earlier attempt sent.
 */
export class DbManifestStore extends ManifestStore {
  constructor(private readonly db: Db) {
    super();
  }

  /** Records the stage's duration for metrics once the manifest says it ended. */
  override async stageFinished(...args: Parameters<ManifestStore["stageFinished"]>): Promise<void> {
    const [ctx, stage, status] = args;
    await super.stageFinished(...args);
    const s = (await this.getStages(ctx).catch(() => undefined))?.[stage];
    stageEnded(stage, status, s?.startedAt, s?.finishedAt);
  }

  protected async read(key: string): Promise<string | undefined> {
    const rows = await this.db.query<{ body: string }>("SELECT body FROM deployer_manifests WHERE key = $1", [key]);
    return rows[0]?.body;
  }

  protected async write(key: string, text: string): Promise<void> {
    await this.db.query(
      `INSERT INTO deployer_manifests (key, chain_id, body) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET body = EXCLUDED.body, updated_at = now()`,
      [key, key.split("/")[0], text],
    );
  }

  protected async keys(chainId: bigint, kind: ManifestKind): Promise<string[]> {
    // The kind is chosen here, not by reading every key: a chain holds one manifest per program.
    const rows = await this.db.query<{ key: string }>(
      "SELECT key FROM deployer_manifests WHERE chain_id = $1 AND starts_with(key, $2) = $3",
      [chainId.toString(), releaseKeyPrefix(chainId), kind === "release"],
    );
    return rows.map((r) => r.key);
  }
}
