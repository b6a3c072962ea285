import assert from "node:assert/strict";
import { DocumentValidator } from "./openapiAjv.js";
import type { Schema } from "./jsonSchemaArb.js";

/**
 * Every response the API test helpers receive is checked against the document the API serves
 * (Ajv, 2020-12): a route that drifts from its schema fails the suite that called it. Answers
 * that belong to no operation (unknown paths, 405, OPTIONS, the console's files) are skipped.
 */
const validators = new Map<string, Promise<DocumentValidator | undefined>>();

function validatorOf(base: string): Promise<DocumentValidator | undefined> {
  let v = validators.get(base);
  if (!v) {
    v = fetch(`${base}/api/v1/openapi.json`)
      .then(async (res) => (res.ok ? new DocumentValidator((await res.json()) as Schema) : undefined))
      .catch(() => undefined);
    validators.set(base, v);
  }
  return v;
}

export async function assertMatchesDocument(
  base: string,
  method: string,
  path: string,
  res: { status: number; headers: Headers; body: unknown },
): Promise<void> {
  if (process.env.API_DOCUMENT_HOOK === "off") return;
  const validator = await validatorOf(base);
  const bare = new URL(path, base).pathname;
  const op = validator?.find(method === "HEAD" ? "GET" : method, bare);
  if (!validator || !op || method === "HEAD" || res.status === 405) return;
  const why = validator.checkResponse(op, res.status, res.headers.get("content-type"), res.body);
  assert.equal(why, undefined, `response off the OpenAPI document: ${method} ${path} -> ${why}`);
}
