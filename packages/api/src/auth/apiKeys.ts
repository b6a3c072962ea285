import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../db/db.js";
import { TtlCache } from "../db/ttlCache.js";

/** API keys: shown once at creation, stored only as SHA-256 hashes, never logged. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

const hash = (key: string) => createHash("sha256").update(key).digest("hex");

export class ApiKeys {
  // key hash -> key id; a revocation by another process takes effect within cacheMs.
  private readonly valid: TtlCache<string | undefined>;

  constructor(
    private readonly db: Db,
    cacheMs = 0,
  ) {
    this.valid = new TtlCache(cacheMs);
  }

  /** Creates a key; the plain key is returned once and cannot be recovered. */
  async create(name: string): Promise<{ key: string; info: ApiKeyInfo }> {
    const key = `pk_${randomBytes(32).toString("base64url")}`;
    const id = randomUUID();
    const rows = await this.db.query<Record<string, string | Date | null>>(
      "INSERT INTO api_keys (id, name, key_hash, prefix) VALUES ($1, $2, $3, $4) RETURNING *",
      [id, name, hash(key), key.slice(0, 10)],
    );
    return { key, info: toInfo(rows[0]) };
  }

  /** The key's id when it is valid and not revoked. */
  async verify(key: string): Promise<string | undefined> {
    const h = hash(key);
    return this.valid.get(h, async () => {
      const rows = await this.db.query<{ id: string }>(
        "SELECT id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
        [h],
      );
      return rows[0]?.id;
    });
  }

  async revoke(id: string): Promise<boolean> {
    // This process forgets every verified key at once; others within their cache time.
    this.valid.clear();
    const rows = await this.db.query(
      "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id",
      [id],
    );
    return rows.length === 1;
  }

  async list(): Promise<ApiKeyInfo[]> {
    return (
      await this.db.query<Record<string, string | Date | null>>("SELECT * FROM api_keys ORDER BY created_at")
    ).map(toInfo);
  }
}

const toInfo = (r: Record<string, string | Date | null>): ApiKeyInfo => ({
  id: String(r.id),
  name: String(r.name),
  prefix: String(r.prefix),
  createdAt: new Date(r.created_at as string).toISOString(),
  revokedAt: r.revoked_at ? new Date(r.revoked_at as string).toISOString() : null,
});
