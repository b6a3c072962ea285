import type { z } from "zod";
import { routes, type RouteDef, type RouteName } from "@points/schema";
import {
  ADDRESS,
  BAD,
  BAD_PARAM,
  BAD_QUERY,
  FIELD_KINDS,
  LOWER,
  VALID,
  VALID_FIELD,
  VALID_PARAM,
  type Bad,
  type Kind,
} from "./badInput.samples.js";

/**
 * A deterministic generator of malformed requests for every route of the table. It starts
 * from one valid request per route (built from the samples in badInput.samples.ts) and
 * breaks one thing at a time, so each case fails for exactly one reason, which the case names.
 */

export { ADDRESS, FIELD_KINDS };

export interface Case {
  name: string;
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  expect: "INVALID_INPUT" | "PAYLOAD_TOO_LARGE";
  /** Text the error message must contain: the bad field's path, or the unknown key. */
  names?: string;
}

const shapeOf = (s: z.ZodType | undefined) => (s as unknown as { shape?: Record<string, z.ZodType> })?.shape ?? {};
const isOptional = (s: z.ZodType) => s.safeParse(undefined).success;
const kindOf = (field: string): Kind => {
  const kind = FIELD_KINDS[field];
  if (!kind) throw new Error(`no sample kind for field "${field}": add it to FIELD_KINDS`);
  return kind;
};

/** The valid request of a route: params, query and body. */
export function validRequest(route: RouteDef) {
  const params = Object.fromEntries(
    Object.keys(shapeOf(route.params)).map((k) => [k, VALID_PARAM[k] ?? String(VALID[kindOf(k)])]),
  );
  const fill = (shape: Record<string, z.ZodType>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(shape).map(([k, s]) => [
        k,
        k === "input"
          ? fill(shapeOf(s))
          : kindOf(k) === "rows"
            ? [fill(shapeOf((s as unknown as { element: z.ZodType }).element))]
            : k in VALID_FIELD
              ? VALID_FIELD[k]
              : VALID[kindOf(k)],
      ]),
    );
  const body = route.body ? fill(shapeOf(route.body)) : undefined;
  return { params, body };
}

const pathOf = (route: RouteDef, params: Record<string, string>) =>
  route.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k]));

/** JSON text of `body` with `raw` JSON text at `at` (a path of keys). */
function withValue(body: Record<string, unknown>, at: string[], bad: Bad): string {
  const MARK = "__BAD_VALUE__";
  const copy = structuredClone(body);
  let obj = copy;
  for (const k of at.slice(0, -1)) obj = obj[k] as Record<string, unknown>;
  obj[at.at(-1)!] = bad.raw === undefined ? bad.value : MARK;
  const text = JSON.stringify(copy);
  return bad.raw === undefined ? text : text.replace(`"${MARK}"`, bad.raw);
}

function without(body: Record<string, unknown>, at: string[]): string {
  const copy = structuredClone(body);
  let obj = copy;
  for (const k of at.slice(0, -1)) obj = obj[k] as Record<string, unknown>;
  delete obj[at.at(-1)!];
  return JSON.stringify(copy);
}

function bodyCases(name: RouteName, route: RouteDef, path: string, body: Record<string, unknown>): Case[] {
  const cases: Case[] = [];
  const add = (c: Omit<Case, "method" | "path" | "expect"> & Partial<Pick<Case, "expect">>) =>
    cases.push({ method: route.method, path, expect: "INVALID_INPUT", ...c, name: `${name}: ${c.name}` });
  const fields: [string[], z.ZodType][] = [];
  for (const [k, s] of Object.entries(shapeOf(route.body))) {
    if (k === "input") for (const [ik, is] of Object.entries(shapeOf(s))) fields.push([["input", ik], is]);
    else fields.push([[k], s]);
  }
  for (const [at, schema] of fields) {
    const field = ["body", ...at].join(".");
    for (const bad of BAD[kindOf(at.at(-1)!)]) {
      add({ name: `${field} ${bad.why}`, body: withValue(body, at, bad), names: field });
    }
    if (kindOf(at.at(-1)!) === "amount" && !schema.safeParse("0").success) {
      add({ name: `${field} zero`, body: withValue(body, at, { why: "", value: "0" }), names: field });
    }
    if (!isOptional(schema)) add({ name: `${field} missing`, body: without(body, at), names: field });
  }
  const extra = (at: string[]) => withValue(body, [...at, "bogusField"], { why: "", value: 1 });
  add({ name: "unknown top-level field", body: extra([]), names: "bogusField" });
  add({
    name: "__proto__ field",
    body: `{"__proto__":{"admin":true},${JSON.stringify(body).slice(1)}`,
    names: "__proto__",
  });
  if ("input" in body) {
    add({ name: "unknown field in input", body: extra(["input"]), names: "bogusField" });
    add({ name: "input is an array", body: withValue(body, ["input"], { why: "", value: [] }), names: "body.input" });
    add({ name: "input is null", body: withValue(body, ["input"], { why: "", value: null }), names: "body.input" });
  }
  add({ name: "array body", body: JSON.stringify([body]), names: "body" });
  add({ name: "null body", body: "null", names: "body" });
  add({ name: "number body", body: "42", names: "body" });
  add({ name: "string body", body: '"hello"', names: "body" });
  add({ name: "empty object body", body: "{}", names: "body" });
  add({ name: "no body", names: "body" });
  add({ name: "truncated JSON", body: JSON.stringify(body).slice(0, -3) });
  add({ name: "single-quoted JSON", body: "{'input': {}}" });
  add({ name: "trailing comma", body: JSON.stringify(body).replace(/}$/, ",}") });
  add({ name: "text/plain content type", body: JSON.stringify(body), contentType: "text/plain", names: "body" });
  add({
    name: "form content type",
    body: "key=" + ADDRESS,
    contentType: "application/x-www-form-urlencoded",
    names: "body",
  });
  // Bulk routes take up to 2 MB (a 10,000-row CSV); every other route 100 kB.
  const bulk = route.path.startsWith("/studio/sdk/v1/bulk/");
  const pad = "x".repeat(bulk ? 2 * 1024 * 1024 + 1024 : 101 * 1024);
  add({
    name: bulk ? "body over 2 MB" : "body over 100 kB",
    body: withValue(body, ["pad"], { why: "", value: pad }),
    expect: "PAYLOAD_TOO_LARGE",
  });
  return cases;
}

function paramCases(name: RouteName, route: RouteDef, params: Record<string, string>, body?: string): Case[] {
  const cases: Case[] = [];
  for (const k of Object.keys(params)) {
    const key = k in BAD_PARAM ? k : kindOf(k);
    for (const value of BAD_PARAM[key] ?? []) {
      cases.push({
        name: `${name}: params.${k} = ${value.slice(0, 20)}`,
        method: route.method,
        path: pathOf(route, { ...params, [k]: value }),
        body,
        expect: "INVALID_INPUT",
        names: `params.${k}`,
      });
    }
  }
  return cases;
}

function queryCases(name: RouteName, route: RouteDef, path: string): Case[] {
  return Object.keys(shapeOf(route.query)).flatMap((k) =>
    [...(BAD_QUERY[k] ?? []).map(([v, why]) => [`${k}=${v}`, why]), [`${k}=a&${k}=b`, `${k} given twice`]].map(
      ([q, why]) => ({
        name: `${name}: query ${why}`,
        method: route.method,
        path: `${path}?${q}`,
        expect: "INVALID_INPUT" as const,
        names: `query.${k}`,
      }),
    ),
  );
}

/** Every malformed request for every route, in a fixed order. */
export function generateCases(): Case[] {
  const cases: Case[] = [];
  for (const [name, route] of Object.entries(routes) as [RouteName, RouteDef][]) {
    const { params, body } = validRequest(route);
    const path = pathOf(route, params);
    if (body) cases.push(...bodyCases(name, route, path, body));
    cases.push(...paramCases(name, route, params, body && JSON.stringify(body)));
    cases.push(...queryCases(name, route, path));
  }
  return cases;
}
