import type { IncomingHttpHeaders } from "node:http";
import type { UnsignedTx } from "@points/schema";
import type { Ctx } from "../../core/context.js";
import { ownerOf, type Caller } from "../../core/auth/caller.js";
import { requestHash } from "../../core/onboarding/tasks.js";
import { ApiError } from "../../core/errors.js";

const KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * The request's `Idempotency-Key`, or undefined when none was sent: the one rule for its form,
 * shared by the build routes and the deploy route (which keep their answers differently).
 */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const key = headers["idempotency-key"];
  if (key === undefined) return undefined;
  if (typeof key !== "string" || !KEY.test(key)) {
    throw new ApiError("INVALID_INPUT", "Idempotency-Key must be 1-200 printable characters");
  }
  return key;
}

/** What a build request is, for recognising its replay: the route and its validated input. */
export interface BuildRequest {
  route: string;
  headers: IncomingHttpHeaders;
  caller: Caller;
  params: unknown;
  query: unknown;
  body: unknown;
}

interface Row {
  route: string;
  request_hash: string;
  response: string;
}

/**
 * Runs a build route under its `Idempotency-Key`, if one was sent. The first successful answer
 * is kept per owner (API key or console user) for `config.idempotencyTtlMs`: the same key and
 * request get it back unchanged (same transaction bytes, nonce included), so however often a
 * client retries, at most one of its transactions can be mined; the same key with another
 * request is a 409. Refusals are not kept: a retry after a 4xx or 5xx builds again. Anonymous
 * callers cannot use keys, so one caller's key never answers or blocks another.
 */
export async function idempotentBuild(
  ctx: Ctx,
  req: BuildRequest,
  build: () => Promise<UnsignedTx>,
): Promise<{ data: UnsignedTx; replayed: boolean }> {
  const key = idempotencyKeyOf(req.headers);
  if (key === undefined) return { data: await build(), replayed: false };
  const owner = ownerOf(req.caller);
  if (owner === undefined) {
    throw new ApiError("UNAUTHORIZED", "Idempotency-Key needs an API key (keys are kept per caller)");
  }
  const hash = requestHash({ route: req.route, params: req.params, query: req.query, body: req.body });
  const stored = await lookup(ctx, owner, key);
  if (stored) return { data: replay(stored, hash), replayed: true };

  const data = await build();
  const response = JSON.stringify(data);
  // Whoever inserts first wins; a concurrent twin gets the winner's answer, not its own.
  const inserted = await ctx.db.query(
    `INSERT INTO build_idempotency (owner, idempotency_key, route, request_hash, response, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
     ON CONFLICT (owner, idempotency_key) DO UPDATE
       SET route = EXCLUDED.route, request_hash = EXCLUDED.request_hash, response = EXCLUDED.response,
           created_at = now(), expires_at = EXCLUDED.expires_at
       WHERE build_idempotency.expires_at <= now()
     RETURNING owner`,
    [owner, key, req.route, hash, response, ctx.config.idempotencyTtlMs],
  );
  await ctx.db.query("DELETE FROM build_idempotency WHERE expires_at <= now()");
  if (inserted.length === 1) return { data, replayed: false };
  const winner = await lookup(ctx, owner, key);
  if (!winner) throw new ApiError("INTERNAL", "the Idempotency-Key's answer vanished while it was stored");
  return { data: replay(winner, hash), replayed: true };
}

async function lookup(ctx: Ctx, owner: string, key: string): Promise<Row | undefined> {
  const rows = await ctx.db.query<Row>(
    "SELECT route, request_hash, response FROM build_idempotency WHERE owner = $1 AND idempotency_key = $2 AND expires_at > now()",
    [owner, key],
  );
  return rows[0];
}

function replay(row: Row, hash: string): UnsignedTx {
  if (row.request_hash !== hash) {
    // The same caller may learn the stored nonce: a client that queues nonces retries with it.
    const nonce = (JSON.parse(row.response) as { nonce?: unknown }).nonce;
    throw new ApiError("CONFLICT", "Idempotency-Key was already used with a different request", {
      route: row.route,
      nonce,
    });
  }
  return JSON.parse(row.response) as UnsignedTx;
}
