import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { once } from "node:events";
import type { Service } from "../src/index.js";
import { startLoggedApi } from "./helpers/logs.js";

// A client that aborts its upload was logged as a chain outage
// (CHAIN_UNAVAILABLE, 502, error level): the body parser's ECONNABORTED matched isRpcUnreachable.
describe("http: an aborted upload is the client's doing, never a chain outage", () => {
  let service: Service;
  let url: string;
  let lines: string[];
  before(async () => {
    ({ service, url, lines } = await startLoggedApi({ LOG_LEVEL: "info" }));
  });
  after(() => service?.close());

  /** Sends half of a declared body, unauthenticated, and hangs up. */
  async function abortUpload(path: string, requestId: string) {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        `X-Request-Id: ${requestId}\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
    );
    // "100 Continue" says the server parsed the headers; then half a body, and hang up.
    await once(socket, "data");
    socket.write('{"input":');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
  }

  /** The parsed log lines of request `id` once its error line is there (waits on the log, not a clock). */
  async function linesOf(id: string) {
    for (let i = 0; i < 500; i++) {
      const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.req?.id === id || l.reqId === id);
      if (mine.some((l) => l.code)) return mine;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`no error line for ${id}: ${lines.slice(-5).join("\n")}`);
  }

  for (const path of ["/api/v1/build/transfer", "/studio/sdk/v1/bulk/psp/mint", "/console/v1/auth/code"]) {
    it(`abortedBody_on_${path}_isLoggedInvalidInputAtInfo_notChainUnavailable`, async () => {
      const id = `abort-${path.replace(/\W/g, "")}`;
      await abortUpload(path, id);
      const mine = await linesOf(id);
      const errorLine = mine.find((l) => l.code)!;
      assert.deepEqual(
        [errorLine.code, errorLine.level, errorLine.msg],
        ["INVALID_INPUT", 30, "the client aborted the request"],
      );
      assert.deepEqual(
        mine.filter((l) => l.level >= 50 || l.code === "CHAIN_UNAVAILABLE"),
        [],
      );
    });
  }
});
