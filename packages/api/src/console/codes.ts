import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Config } from "../config/env.js";
import type { Db } from "../db/db.js";
import { ApiError } from "../errors.js";
import type { Mailer } from "./mailer.js";

/** The window of the per-address and per-IP request limits. */
const LIMIT_WINDOW = "15 minutes";

interface CodeRow {
  id: string;
  code_hash: string;
  attempts: number;
}

/**
 * E-mail sign-in codes: 6 digits from a CSPRNG, stored only as an HMAC under the server's
 * secret (a leaked table cannot be brute-forced without it), one live code per address,
 * a short lifetime and a fixed number of attempts.
 */
export class LoginCodes {
  constructor(
    private readonly db: Db,
    private readonly config: Config["console"],
    private readonly mailer: Mailer,
  ) {}

  private hash(id: string, email: string, code: string): string {
    return createHmac("sha256", this.config.secret()).update(`${id}\n${email}\n${code}`).digest("hex");
  }

  /** Issues a code and mails it. The answer never depends on whether the address has an account. */
  async request(email: string, ip: string): Promise<void> {
    const count = async (column: "email" | "ip", value: string) =>
      Number(
        (
          await this.db.query<{ n: string | number }>(
            `SELECT count(*) AS n FROM login_codes WHERE ${column} = $1 AND created_at > now() - interval '${LIMIT_WINDOW}'`,
            [value],
          )
        )[0].n,
      );
    if ((await count("email", email)) >= this.config.codesPerEmail) {
      throw new ApiError("RATE_LIMITED", "too many codes requested for this address: wait 15 minutes");
    }
    if ((await count("ip", ip)) >= this.config.codesPerIp) {
      throw new ApiError("RATE_LIMITED", "too many codes requested from this network: wait 15 minutes");
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      // A new code replaces the previous one: only the latest e-mail works.
      await tx.query("UPDATE login_codes SET consumed_at = now() WHERE email = $1 AND consumed_at IS NULL", [email]);
      await tx.query(
        `INSERT INTO login_codes (id, email, code_hash, ip, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        [id, email, this.hash(id, email, code), ip, this.config.codeTtlSeconds],
      );
      // Rows outlive their codes only to feed the request limits.
      await tx.query("DELETE FROM login_codes WHERE created_at < now() - interval '1 day'");
    });
    await this.mailer.sendCode(email, code, this.config.codeTtlSeconds);
  }

  /**
   * Checks a code. Each call spends one attempt before comparing, atomically, so parallel
   * guesses cannot exceed the budget. Throws 401 (wrong, with attemptsLeft; expired; none
   * pending) or 429 (attempts used up); resolves when the code is right (and spends it).
   */
  async verify(email: string, code: string): Promise<void> {
    const max = this.config.codeAttempts;
    const [row] = await this.db.query<CodeRow>(
      `UPDATE login_codes SET attempts = attempts + 1
       WHERE id = (SELECT id FROM login_codes WHERE email = $1 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1)
         AND attempts < $2 AND expires_at > now() AND consumed_at IS NULL
       RETURNING id, code_hash, attempts`,
      [email, max],
    );
    if (!row) throw await this.whyNot(email, max);
    const expected = Buffer.from(row.code_hash, "hex");
    const given = Buffer.from(this.hash(row.id, email, code), "hex");
    if (!timingSafeEqual(expected, given)) {
      const attemptsLeft = max - row.attempts;
      throw new ApiError(
        "UNAUTHORIZED",
        attemptsLeft > 0 ? "wrong code" : "wrong code: no attempts left, request a new code",
        { attemptsLeft },
      );
    }
    const spent = await this.db.query(
      "UPDATE login_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id",
      [row.id],
    );
    if (spent.length === 0) throw new ApiError("UNAUTHORIZED", "this code was already used: request a new one");
  }

  private async whyNot(email: string, max: number): Promise<ApiError> {
    const [latest] = await this.db.query<{ attempts: number; expired: boolean }>(
      `SELECT attempts, expires_at <= now() AS expired FROM login_codes
       WHERE email = $1 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      [email],
    );
    if (!latest) return new ApiError("UNAUTHORIZED", "no code is pending for this address: request a new one");
    if (latest.attempts >= max) {
      return new ApiError("RATE_LIMITED", "too many wrong codes: request a new one", { attemptsLeft: 0 });
    }
    return new ApiError("UNAUTHORIZED", "the code has expired: request a new one", { expired: true });
  }
}
