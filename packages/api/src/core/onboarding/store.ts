import { ManifestStore, releaseKeyPrefix, type ManifestKind } from "@points/deployer";
import { stageEnded } from "../metrics/index.js";
import type { Db } from "../db/db.js";

/**
 * The deployer's store, in the service's database: one row per manifest (a program's stages and
 * record, or a release). Stages are written before and after every transaction, so a resumed
 * task finds what an earlier attempt sent.
 */
export class DbManifestStore extends ManifestStore {
  /** The manifests this instance last read or wrote, by key, most recent last (bounded). */
  private readonly seen = new Map<string, { revision: string; body: string }>();

  constructor(
    private readonly db: Db,
    private readonly remember = 256,
  ) {
    super();
  }

  private keep(key: string, revision: string, body: string): string {
    this.seen.delete(key);
    this.seen.set(key, { revision, body });
    if (this.seen.size > this.remember) this.seen.delete(this.seen.keys().next().value!);
    return body;
  }

  /** Records the stage's duration for metrics once the manifest says it ended. */
  protected override stageEnded(...[stage, s]: Parameters<ManifestStore["stageEnded"]>): void {
    stageEnded(stage, s.status, s.startedAt, s.finishedAt);
  }

  /**
   * A task reads its manifest dozens of times (every stage update reads it first), most of them
   * unchanged since this instance wrote it: the body crosses from the database only when its
   * revision is not the one held here. Another instance's write bumps the revision, so what is
   * held is never answered stale.
   */
  protected async read(key: string): Promise<string | undefined> {
    const held = this.seen.get(key);
    const rows = await this.db.query<{ revision: string; body: string | null }>(
      `SELECT revision::text AS revision, CASE WHEN revision::text = $2 THEN NULL ELSE body END AS body
       FROM deployer_manifests WHERE key = $1`,
      [key, held?.revision ?? null],
    );
    const row = rows[0];
    if (!row) {
      this.seen.delete(key);
      return undefined;
    }
    return this.keep(key, row.revision, row.body ?? held!.body);
  }

  /** An update starts from the body this instance last read or wrote: `write` refuses it if it changed since. */
  protected override async readForUpdate(key: string): Promise<string | undefined> {
    return this.seen.get(key)?.body ?? this.read(key);
  }

  /**
   * One statement: over the revision this instance holds (false, and nothing written, when
   * another instance wrote since), or, holding none, over whatever is there.
   */
  protected async write(key: string, text: string): Promise<void | false> {
    const held = this.seen.get(key);
    const rows = held
      ? await this.db.query<{ revision: string }>(
          `UPDATE deployer_manifests SET body = $2, revision = nextval('deployer_manifest_revisions'), updated_at = now()
           WHERE key = $1 AND revision = $3::bigint RETURNING revision::text AS revision`,
          [key, text, held.revision],
        )
      : await this.db.query<{ revision: string }>(
          `INSERT INTO deployer_manifests (key, chain_id, body) VALUES ($1, $2, $3)
           ON CONFLICT (key) DO UPDATE SET body = EXCLUDED.body, revision = nextval('deployer_manifest_revisions'), updated_at = now()
           RETURNING revision::text AS revision`,
          [key, key.split("/")[0], text],
        );
    if (!rows[0]) {
      this.seen.delete(key);
      return false;
    }
    this.keep(key, rows[0].revision, text);
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
