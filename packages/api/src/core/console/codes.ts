import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Config } from "../config/env.js";
import type { Db } from "../db/db.js";
import { ApiError } from "../errors.js";
import { doubling } from "../backoff.js";
import type { Mailer } from "./mailer.js";

/** The window of the per-address and per-IP request limits. */
const LIMIT_WINDOW = "15 minutes";
/** The advisory lock class of code requests (the second key is the network's hash). */
const CODES_LOCK = 0x636f6465; // "code"

interface CodeRow {
  id: string;
  code_hash: string;
}

/**
 * E-mail sign-in codes: 6 digits from a CSPRNG, stored only as an HMAC under the server's
 * secret (a leaked table cannot be brute-forced without it), one live code per address and
 * network (it signs in only from the network that asked for it), a short lifetime and a fixed
 * number of attempts. Budgets: packages/api/README.md#sign-in-budgets.
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
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      // Counted and inserted under one lock per network, so parallel requests on every instance
      // sharing the database get exactly the budget (both budgets below are per network).
      await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [CODES_LOCK, ip]);
      const [n] = await tx.query<{ mine: string | number; net: string | number }>(
        `SELECT count(*) FILTER (WHERE email = $1) AS mine, count(*) AS net FROM login_codes
         WHERE ip = $2 AND created_at > now() - interval '${LIMIT_WINDOW}'`,
        [email, ip],
      );
      // Per address and network, not per address: another network's requests never spend the
      // owner's budget (docs: packages/api/README.md#sign-in-budgets).
      if (Number(n.mine) >= this.config.codesPerEmail) {
        throw new ApiError("RATE_LIMITED", "too many codes requested for this address: wait 15 minutes");
      }
      if (Number(n.net) >= this.config.codesPerIp) {
        throw new ApiError("RATE_LIMITED", "too many codes requested from this network: wait 15 minutes");
      }
      // A new code replaces the previous one asked from the same network: only its latest
      // e-mail works, and another network's requests cannot replace the owner's code.
      await tx.query(
        "UPDATE login_codes SET consumed_at = now() WHERE email = $1 AND ip = $2 AND consumed_at IS NULL",
        [email, ip],
      );
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
   * Checks a code against the one asked for from the same network (docs:
   * packages/api/README.md#sign-in-budgets). A guess is refused before it is compared when its
   * IP sent too many wrong codes, or while the address waits out its backoff after this network
   * guessed wrong. Each guess then spends one of the code's attempts, atomically, so parallel
   * guesses cannot exceed them. Throws 401 (wrong, with attemptsLeft; expired; none pending) or 429; resolves
   * when the code is right (and spends it).
   */
  async verify(email: string, code: string, ip: string): Promise<void> {
    await this.requireNotThrottled(email, ip);
    const max = this.config.codeAttempts;
    const [live] = await this.db.query<CodeRow>(
      `SELECT id, code_hash FROM login_codes
       WHERE email = $1 AND ip = $2 AND consumed_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
      [email, ip],
    );
    if (!live) throw await this.whyNot(email, ip);
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
   * one, at most `verifyBackoffMaxSeconds`, for every network that has guessed wrong for the
   * address; a network that has not (the owner reading its fresh code) never waits.
   */
  private async requireNotThrottled(email: string, ip: string): Promise<void> {
    const [byIp] = await this.db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM login_failures WHERE ip = $1 AND failed_at > now() - interval '${LIMIT_WINDOW}'`,
      [ip],
    );
    if (Number(byIp.n) >= this.config.verifyFailuresPerIp) {
      throw new ApiError("RATE_LIMITED", "too many wrong codes from this network: wait 15 minutes", { reason: "ip" });
    }
    const [byEmail] = await this.db.query<{ n: string | number; since: string | number | null; mine: boolean }>(
      `SELECT count(*) AS n, extract(epoch FROM now() - max(failed_at)) AS since, bool_or(ip = $2) AS mine
       FROM login_failures WHERE email = $1 AND failed_at > now() - interval '1 hour'`,
      [email, ip],
    );
    const over = Number(byEmail.n) - this.config.verifyFreeFailures;
    // A network with no wrong code for this address (the owner, with the code it asked for) is
    // never made to wait by the others' guesses.
    if (over < 0 || byEmail.since === null || !byEmail.mine) return;
    const wait = doubling(over + 1, 1, this.config.verifyBackoffMaxSeconds);
    const left = wait - Number(byEmail.since);
    if (left > 0) {
      throw new ApiError("RATE_LIMITED", `too many wrong codes for this address: try again in ${Math.ceil(left)} s`, {
        reason: "backoff",
        retryAfterSeconds: Math.ceil(left),
      });
    }
  }

  private async whyNot(email: string, ip: string): Promise<ApiError> {
    const [latest] = await this.db.query(
      "SELECT 1 FROM login_codes WHERE email = $1 AND ip = $2 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1",
      [email, ip],
    );
    if (!latest) return new ApiError("UNAUTHORIZED", "no code is pending for this address: request a new one");
    return new ApiError("UNAUTHORIZED", "the code has expired: request a new one", { expired: true });
  }
}
