import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../db/db.js";
import { TtlCache } from "../db/ttlCache.js";
import { DEFAULT_SCOPES, SCOPES, type Scope } from "./scopes.js";

/** API keys: shown once at creation, stored only as SHA-256 hashes, never logged. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

const hash = (key: string) => createHash("sha256").update(key).digest("hex");

export class ApiKeys {
  // key hash -> key; a revocation by another process takes effect within cacheMs.
  private readonly valid: TtlCache<VerifiedKey | undefined>;

  constructor(
    private readonly db: Db,
    cacheMs = 0,
  ) {
    this.valid = new TtlCache(cacheMs);
  }

  /** Creates a key; the plain key is returned once and cannot be recovered. */
  async create(name: string, scopes: readonly Scope[] = DEFAULT_SCOPES): Promise<{ key: string; info: ApiKeyInfo }> {
    if (scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s))) throw new Error(`invalid scopes ${scopes}`);
    const key = `pk_${randomBytes(32).toString("base64url")}`;
    const id = randomUUID();
    const rows = await this.db.query<Record<string, string | Date | null>>(
      "INSERT INTO api_keys (id, name, key_hash, prefix, scopes) VALUES ($1, $2, $3, $4, $5) RETURNING *",
      [id, name, hash(key), key.slice(0, 10), [...new Set(scopes)].join(",")],
    );
    return { key, info: toInfo(rows[0]) };
  }

  /** The key's id and scopes when it is valid and not revoked. */
  async verify(key: string): Promise<VerifiedKey | undefined> {
    const h = hash(key);
    return this.valid.get(h, async () => {
      const rows = await this.db.query<{ id: string; scopes: string }>(
        "SELECT id, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
        [h],
      );
      return rows[0] && { id: rows[0].id, scopes: splitScopes(rows[0].scopes) };
    });
  }

  async revoke(id: string): Promise<boolean> {
    // This process forgets every verified key at once; others within their cache time.
    this.valid.clear();
    // What the key set running stops with it: its webhook subscriptions are disabled, in the
    // revocation's transaction (docs/architecture.md#webhooks).
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id",
        [id],
      );
      if (rows.length === 1) {
        await tx.query(
          `UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = 'its API key was revoked'
           WHERE owner = $1 AND status <> 'disabled'`,
          [id],
        );
      }
      return rows.length === 1;
    });
  }

  async list(): Promise<ApiKeyInfo[]> {
    return (
      await this.db.query<Record<string, string | Date | null>>("SELECT * FROM api_keys ORDER BY created_at")
    ).map(toInfo);
  }
}

export interface VerifiedKey {
  id: string;
  scopes: Scope[];
}

const splitScopes = (text: string): Scope[] => text.split(",").filter((s): s is Scope => SCOPES.includes(s as Scope));

const toInfo = (r: Record<string, string | Date | null>): ApiKeyInfo => ({
  id: String(r.id),
  name: String(r.name),
  prefix: String(r.prefix),
  scopes: splitScopes(String(r.scopes)),
  createdAt: new Date(r.created_at as string).toISOString(),
  revokedAt: r.revoked_at ? new Date(r.revoked_at as string).toISOString() : null,
});
