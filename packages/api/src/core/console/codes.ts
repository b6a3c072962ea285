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
      await tx.query("DELETE FROM login_code_attempts WHERE code_id NOT IN (SELECT id FROM login_codes)");
      await tx.query("DELETE FROM login_failures WHERE failed_at < now() - interval '1 day'");
    });
    await this.mailer.sendCode(email, code, this.config.codeTtlSeconds);
  }

  /**
   * Checks a code (docs: packages/api/README.md#console-backend). A guess is refused before
   * it is compared when its IP sent too many wrong codes, or while the address waits out its
   * backoff. Each guess then spends one of its IP's attempts on the code, atomically, so
   * parallel guesses cannot exceed them, and another network's guesses never spend the
   * owner's. Throws 401 (wrong, with attemptsLeft; expired; none pending) or 429; resolves
   * when the code is right (and spends it).
   */
  async verify(email: string, code: string, ip: string): Promise<void> {
    await this.requireNotThrottled(email, ip);
    const max = this.config.codeAttempts;
    const [live] = await this.db.query<CodeRow>(
      `SELECT id, code_hash FROM login_codes
       WHERE email = $1 AND consumed_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
      [email],
    );
    if (!live) throw await this.whyNot(email);
    const [spent] = await this.db.query<{ attempts: number }>(
      `INSERT INTO login_code_attempts (code_id, ip, attempts) VALUES ($1, $2, 1)
       ON CONFLICT (code_id, ip) DO UPDATE SET attempts = login_code_attempts.attempts + 1
         WHERE login_code_attempts.attempts < $3
       RETURNING attempts`,
      [live.id, ip, max],
    );
    if (!spent) throw new ApiError("RATE_LIMITED", "too many wrong codes: request a new one", { attemptsLeft: 0 });
    const expected = Buffer.from(live.code_hash, "hex");
    const given = Buffer.from(this.hash(live.id, email, code), "hex");
    if (!timingSafeEqual(expected, given)) {
      await this.db.query("INSERT INTO login_failures (email, ip) VALUES ($1, $2)", [email, ip]);
      const attemptsLeft = max - spent.attempts;
      throw new ApiError(
        "UNAUTHORIZED",
        attemptsLeft > 0 ? "wrong code" : "wrong code: no attempts left, request a new one",
        { attemptsLeft },
      );
    }
    const used = await this.db.query(
      "UPDATE login_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id",
      [live.id],
    );
    if (used.length === 0) throw new ApiError("UNAUTHORIZED", "this code was already used: request a new one");
    await this.db.query("DELETE FROM login_failures WHERE email = $1 OR failed_at < now() - interval '1 day'", [email]);
  }

  /**
   * The per-IP bound on wrong codes, then the address's backoff: past `verifyFreeFailures`
   * wrong codes in the last hour, the next guess waits 2^(n - free) seconds after the last
   * one, at most `verifyBackoffMaxSeconds`. Bounded, so an attacker hammering an address
   * delays its owner by at most that, never locks them out.
   */
  private async requireNotThrottled(email: string, ip: string): Promise<void> {
    const [byIp] = await this.db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM login_failures WHERE ip = $1 AND failed_at > now() - interval '${LIMIT_WINDOW}'`,
      [ip],
    );
    if (Number(byIp.n) >= this.config.verifyFailuresPerIp) {
      throw new ApiError("RATE_LIMITED", "too many wrong codes from this network: wait 15 minutes", { reason: "ip" });
    }
    const [byEmail] = await this.db.query<{ n: string | number; since: string | number | null }>(
      `SELECT count(*) AS n, extract(epoch FROM now() - max(failed_at)) AS since
       FROM login_failures WHERE email = $1 AND failed_at > now() - interval '1 hour'`,
      [email],
    );
    const over = Number(byEmail.n) - this.config.verifyFreeFailures;
    if (over < 0 || byEmail.since === null) return;
    const wait = Math.min(2 ** Math.min(over, 30), this.config.verifyBackoffMaxSeconds);
    const left = wait - Number(byEmail.since);
    if (left > 0) {
      throw new ApiError("RATE_LIMITED", `too many wrong codes for this address: try again in ${Math.ceil(left)} s`, {
        reason: "backoff",
        retryAfterSeconds: Math.ceil(left),
      });
    }
  }

  private async whyNot(email: string): Promise<ApiError> {
    const [latest] = await this.db.query(
      "SELECT 1 FROM login_codes WHERE email = $1 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1",
      [email],
    );
    if (!latest) return new ApiError("UNAUTHORIZED", "no code is pending for this address: request a new one");
    return new ApiError("UNAUTHORIZED", "the code has expired: request a new one", { expired: true });
  }
}
