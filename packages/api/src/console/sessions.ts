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

  async revoke(token: string): Promise<void> {
    if (!SESSION_TOKEN.test(token)) return;
    await this.db.query("DELETE FROM console_sessions WHERE id_hash = $1", [sha256(token)]);
  }
}
