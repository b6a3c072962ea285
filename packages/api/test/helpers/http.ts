import assert from "node:assert/strict";
import { ERROR_CODES, type ErrorCode } from "@points/schema";
import { exchange } from "@points/testkit";
import { assertMatchesDocument } from "./documentHook.js";

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** One request with full control of method, headers and the raw body text. */
export async function send(
  base: string,
  method: string,
  path: string,
  opts: { body?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const { status, headers, text, json } = await exchange(base + path, {
    method,
    headers: opts.headers,
    body: opts.body,
  });
  const raw = { status, headers, text, body: json };
  await assertMatchesDocument(base, method, path, raw);
  return raw;
}

// A V8 stack frame ("    at fn (/path/file.ts:1:2)") or a source path with a line number.
const STACK = /\n\s+at\s|\bat\s.+:\d+:\d+|[\w/.-]+\.(ts|js|mjs|cjs):\d+/;

/** The error envelope (docs/errors.md#the-api-envelope) with `code` and its status; never HTML, never a stack. */
export function assertError(res: RawResponse, code: ErrorCode, context = "") {
  const where = `${context} -> ${res.status} ${res.text.slice(0, 300)}`;
  assert.equal(res.status, ERROR_CODES[code], where);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, where);
  assert.doesNotMatch(res.text, /<html|<!doctype|<body/i, where);
  assert.doesNotMatch(res.text, STACK, where);
  assert.equal(res.body?.success, false, where);
  assert.equal(res.body.error.code, code, where);
  assert.equal(typeof res.body.error.message, "string", where);
  assert.ok(res.body.error.message.length > 0, where);
  const keys = Object.keys(res.body.error).filter((k) => !["code", "message", "details"].includes(k));
  assert.deepEqual(keys, [], `${where}: unexpected error fields`);
  assert.deepEqual(Object.keys(res.body).sort(), ["error", "success"], where);
}
