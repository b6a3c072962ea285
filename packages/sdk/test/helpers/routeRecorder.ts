import assert from "node:assert/strict";
import { routes, type RouteName } from "@points/schema";
import { PointsApiError } from "../../src/index.js";

/** Records every request the client makes and the status it got. */
function recordingFetch() {
  const log: { method: string; path: string; status: number; body: any }[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    const res = await globalThis.fetch(url, init);
    // The CSV exports answer text; every other answer is the JSON envelope.
    const text = await res.clone().text();
    const body = /^text\/csv/.test(res.headers.get("content-type") ?? "") ? text : JSON.parse(text);
    log.push({ method: init!.method!, path: new URL(String(url)).pathname, status: res.status, body });
    return res;
  };
  return { log, fetch };
}

const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, "[^/]+")}$`);

/**
 * A fetch for the client that records each request, and `expectRoute`, which checks that a call
 * made exactly one request to its route's method and path; `reached` collects the routes seen.
 */
export function routeRecorder() {
  const rec = recordingFetch();
  const reached = new Set<RouteName>();
  /** Calls `fn`, then checks it made exactly one request, to `name`'s method and path, answered `status`. */
  async function expectRoute(name: RouteName, fn: () => Promise<unknown>, status = 200) {
    rec.log.length = 0;
    let result: unknown;
    try {
      result = await fn();
    } catch (e) {
      if (!(e instanceof PointsApiError) || e.code === "NETWORK") throw e;
    }
    assert.equal(rec.log.length, 1, `${name}: ${rec.log.length} requests`);
    const [req] = rec.log;
    assert.equal(req.method, routes[name].method.toUpperCase(), name);
    assert.match(req.path, pattern(routes[name].path), name);
    assert.equal(req.status, status, `${name}: ${JSON.stringify(req.body)}`);
    reached.add(name);
    return result;
  }
  return { fetch: rec.fetch, log: rec.log, reached, expectRoute };
}
