import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { deployProgram, startNode, type DevNode } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { send } from "./helpers/http.js";
import { cookieHeader, signIn } from "./helpers/console.js";
import { arbitraryOf, invalidArbitraryOf, type Schema } from "./helpers/jsonSchemaArb.js";
import { DocumentValidator, type Operation } from "./helpers/openapiAjv.js";

/**
 * Property-based: requests generated from the served document's own schemas, sent to a live API
 * on a local chain with a deployed program. Never a 5xx; every response matches the document;
 * an input valid by the document is never refused with 400; an invalid one always gets a 4xx.
 */
// This suite checks every response itself and tallies what is off; the helpers' hook would stop at the first.
process.env.API_DOCUMENT_HOOK = "off";
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 50);

interface Case {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

type Tally = { cases: number; valid: number; invalid: number; failures: string[] };

const asStrings = (v: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((v ?? {}) as Record<string, unknown>)
      .filter(([, x]) => x !== undefined && (typeof x !== "object" || x === null))
      .map(([k, x]) => [k, String(x)]),
  );

/** Percent-encoding that also carries lone surrogates (as the bytes a careless encoder sends). */
const encodeSegment = (v: string) =>
  [...v]
    .map((ch) => {
      const c = ch.charCodeAt(0);
      if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
        return `%ED%${(0xa0 | ((c >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
      }
      return encodeURIComponent(ch);
    })
    .join("");

/** A path segment the document may refuse (never empty: that would address another path). */
const invalidSegment = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfffy", ".", "..", "0", "-1", "0x", "\u{1F600}", " "),
  fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
);

/** Valid requests (three in four) and requests with one part broken. */
function requests(doc: Schema, o: Operation): fc.Arbitrary<Case> {
  const part = (s: Schema | undefined) => (s ? arbitraryOf(doc, s) : fc.constant(undefined));
  const bad = (s: Schema | undefined) => (s ? invalidArbitraryOf(doc, s) : fc.constant(undefined));
  const valid = fc.record({ params: part(o.pathParams), query: part(o.queryParams), body: part(o.body) });
  const brokenParts = [
    o.pathParams &&
      valid.chain((v) =>
        fc
          .tuple(fc.constantFrom(...Object.keys(v.params as object)), invalidSegment)
          .map(([k, x]) => ({ ...v, params: { ...(v.params as object), [k]: x } })),
      ),
    o.queryParams && valid.chain((v) => bad(o.queryParams).map((query) => ({ ...v, query }))),
    o.body && valid.chain((v) => bad(o.body).map((body) => ({ ...v, body }))),
  ].filter((a): a is NonNullable<typeof a> => Boolean(a));
  const any =
    brokenParts.length > 0
      ? fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(...brokenParts) })
      : valid;
  return any.map((c) => ({ params: asStrings(c.params), query: asStrings(c.query), body: c.body }));
}

describe("the OpenAPI document tells the truth (property-based, against a live API)", () => {
  let node: DevNode;
  let api: TestApi;
  let doc: Schema;
  let validator: DocumentValidator;
  let keyAuth: Record<string, string>;
  let sessionAuth: Record<string, string>;

  before(async () => {
    node = await startNode();
    const { record } = await deployProgram(node.provider);
    api = await startApi(node.url, {
      RATE_LIMIT_PER_MINUTE_KEY: "1000000",
      RATE_LIMIT_PER_MINUTE_IP: "1000000",
      WORKER: "off",
    });
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("property");
    keyAuth = { authorization: `Bearer ${key}` };
    sessionAuth = cookieHeader(await signIn(api.url, "property@example.com"));
    doc = (await send(api.url, "GET", "/api/v1/openapi.json")).body;
    validator = new DocumentValidator(doc);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("everyOperation_validInputAccepted_invalidRefused_responsesMatchTheDocument_noServerError", async () => {
    const tallies = new Map<string, Tally>();
    for (const o of validator.operations) {
      const tally: Tally = { cases: 0, valid: 0, invalid: 0, failures: [] };
      tallies.set(o.id, tally);
      const samples = fc.sample(requests(doc, o), { seed: SEED, numRuns: RUNS });
      const security = (o.op.security ?? []) as Record<string, unknown>[];
      const headers = security.some((s) => "apiKey" in s) ? keyAuth : security.length > 0 ? sessionAuth : {};
      for (let i = 0; i < samples.length; i += 4) {
        await Promise.all(
          samples.slice(i, i + 4).map(async (c) => {
            tally.cases++;
            const why = validator.checkRequest(o, c);
            if (why) tally.invalid++;
            else tally.valid++;
            let path = o.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeSegment(c.params[k] ?? ""));
            const qs = Object.entries(c.query)
              .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`)
              .join("&");
            if (qs) path += `?${qs}`;
            const input = JSON.stringify(c).slice(0, 300);
            const res = await send(api.url, o.method.toUpperCase(), path, {
              headers: { ...headers, ...(c.body === undefined ? {} : { "content-type": "application/json" }) },
              body: c.body === undefined ? undefined : JSON.stringify(c.body),
            }).catch((e: Error) => ({
              status: 599,
              text: String(e.cause ?? e),
              headers: new Headers(),
              body: undefined,
            }));
            const fail = (what: string) =>
              tally.failures.push(`${what}: ${input} -> ${res.status} ${res.text.slice(0, 200)}`);
            // "." and ".." segments are collapsed by URL parsers: the request reached another path.
            const reached = new URL(path, api.url).pathname;
            const same = reached === path.split("?")[0];
            const answered = same ? o : validator.find(o.method, reached);
            if (res.status >= 500) fail("server error");
            else if (same && !why && res.status === 400) fail("valid input refused");
            else if (same && why && res.status < 400) fail(`invalid input (${why}) accepted`);
            else if (!same && !why) fail("valid input unaddressable");
            const mismatch = answered
              ? validator.checkResponse(answered, res.status, res.headers.get("content-type"), res.body)
              : res.status === 404 || res.status === 405
                ? undefined
                : `${reached}: no operation, answered ${res.status}`;
            if (mismatch) fail(`response off the document (${mismatch})`);
          }),
        );
      }
    }
    const all = [...tallies.entries()];
    const count = (what: string) =>
      all.reduce((n, [, t]) => n + t.failures.filter((f) => f.startsWith(what)).length, 0);
    console.log(
      `property suite: seed ${SEED}, ${RUNS} cases per operation, ${all.length} operations, ` +
        `${all.reduce((n, [, t]) => n + t.cases, 0)} requests; valid input refused ${count("valid input refused")} ` +
        `(on ${all.filter(([, t]) => t.failures.some((f) => f.startsWith("valid input refused"))).length} operations), ` +
        `invalid accepted ${count("invalid input")}, server errors ${count("server error")}, ` +
        `responses off the document ${count("response off")}`,
    );
    for (const [id, t] of all) {
      console.log(`  ${id}: ${t.cases} cases (${t.valid} valid, ${t.invalid} invalid), ${t.failures.length} failures`);
    }
    const failures = all.flatMap(([id, t]) => t.failures.map((f) => `${id}: ${f}`));
    if (process.env.PROPERTY_DUMP)
      (await import("node:fs")).writeFileSync(process.env.PROPERTY_DUMP, failures.join("\n"));
    assert.deepEqual(failures.slice(0, 40), [], `${failures.length} failures`);
  });
});
