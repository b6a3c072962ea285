import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/db.js";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The shape of a session token: 32 random bytes, base64url. Anything else is never looked up. */
export const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Console sessions: the cookie holds a random token; the database only its SHA-256. */
export class Sessions {
  constructor(
    private readonly db: Db,
    readonly ttlMs: number,
  ) {}

  async create(email: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.db.query("DELETE FROM console_sessions WHERE expires_at <= now()");
    await this.db.query("INSERT INTO console_sessions (id_hash, email, expires_at) VALUES ($1, $2, $3)", [
      sha256(token),
      email,
      expiresAt,
    ]);
    return { token, expiresAt };
  }

  /** The e-mail of a live session, or undefined (unknown, expired, signed out, malformed). */
  async resolve(token: string): Promise<string | undefined> {
    if (!SESSION_TOKEN.test(token)) return undefined;
    const rows = await this.db.query<{ email: string }>(
      "SELECT email FROM console_sessions WHERE id_hash = $1 AND expires_at > now()",
      [sha256(token)],
    );
    return rows[0]?.email;
  }

  /** The wallet this session proved with SIWE (docs: packages/api/README.md#console-backend), or null. */
  async provenWallet(token: string | undefined): Promise<string | null> {
    if (!token || !SESSION_TOKEN.test(token)) return null;
    const rows = await this.db.query<{ proven_wallet: string | null }>(
      "SELECT proven_wallet FROM console_sessions WHERE id_hash = $1 AND expires_at > now()",
      [sha256(token)],
    );
    return rows[0]?.proven_wallet ?? null;
  }

  async setProvenWallet(token: string, wallet: string): Promise<void> {
    await this.db.query("UPDATE console_sessions SET proven_wallet = $2 WHERE id_hash = $1", [sha256(token), wallet]);
  }

  /** A single-use SIWE nonce for this session, valid `ttlSeconds`. */
  async issueNonce(token: string, nonce: string, ttlSeconds: number): Promise<Date> {
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    await this.db.query("DELETE FROM siwe_nonces WHERE expires_at < now() - interval '1 day'");
    await this.db.query("INSERT INTO siwe_nonces (nonce, session_hash, expires_at) VALUES ($1, $2, $3)", [
      nonce,
      sha256(token),
      expiresAt,
    ]);
    return expiresAt;
  }

  /**
   * Spends a nonce: true only when it was issued to this session, is unused and not expired.
   * Atomic, so a message replayed in parallel is accepted once at most.
   */
  async spendNonce(token: string, nonce: string): Promise<{ expiresAt: Date } | undefined> {
    const rows = await this.db.query<{ expires_at: Date | string }>(
      `UPDATE siwe_nonces SET used_at = now()
       WHERE nonce = $1 AND session_hash = $2 AND used_at IS NULL AND expires_at > now() RETURNING expires_at`,
      [nonce, sha256(token)],
    );
    return rows[0] ? { expiresAt: new Date(rows[0].expires_at) } : undefined;
  }

  async revoke(token: string): Promise<void> {
    if (!SESSION_TOKEN.test(token)) return;
    await this.db.query("DELETE FROM console_sessions WHERE id_hash = $1", [sha256(token)]);
  }
}
