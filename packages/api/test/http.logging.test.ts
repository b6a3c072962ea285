import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { placeholderProgram } from "./helpers/records.js";
import type { Service } from "../src/index.js";
import { send } from "./helpers/http.js";
import { CLOSED_PORT, startLoggedApi } from "./helpers/logs.js";

const RPC_SECRET = "rpc-project-secret-123";

describe("http: structured JSON logs with request ids, secrets never logged", () => {
  let lines: string[];
  let service: Service;
  let url: string;
  let key: string;

  before(async () => {
    ({ service, url, lines } = await startLoggedApi({
      LOG_LEVEL: "info",
      RPC_TIMEOUT_MS: "500",
      // A closed port, with a credential in the URL as hosted RPC providers issue them.
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: `${CLOSED_PORT}/${RPC_SECRET}` }]),
    }));
    key = (await service.ctx.keys.create("logged")).key;
    await service.ctx.programs.insert(placeholderProgram());
    const json = { "content-type": "application/json" };
    const bearer = { authorization: `Bearer ${key}` };
    const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    // Success, client errors, auth failures and a 502 (logged at error level with its cause).
    await send(url, "GET", "/api/v1/contracts/factories", { headers: { ...bearer, "x-request-id": "req-ok" } });
    await send(url, "POST", "/studio/sdk/v1/tx/whitelist/mint/add", { body: "{}", headers: { ...bearer, ...json } });
    await send(url, "POST", "/studio/sdk/v1/tx/whitelist/mint/add", {
      body: JSON.stringify({ account: A, from: A, apiKey: key }),
      headers: { ...bearer, ...json },
    });
    await send(url, "GET", "/nope", { headers: { authorization: `Basic ${key}` } });
    await send(url, "GET", "/api/v1/contracts/factories", { headers: { authorization: `Bearer ${key}x` } });
    await send(url, "GET", `/api/v1/evm/balance/${A}`, { headers: { ...bearer, "x-request-id": "req-502" } });
    await send(url, "POST", "/api/v1/build/transfer", {
      body: JSON.stringify({ input: { to: A, amount: "1" }, key: A }),
      headers: { ...bearer, ...json },
    });
    await new Promise((r) => setTimeout(r, 50)); // let the last lines flush
  });
  after(async () => {
    await service?.close();
  });

  it("everyLine_isOneJsonObject_withLevelTimeAndMessage", () => {
    assert.ok(lines.length >= 7, `only ${lines.length} lines`);
    for (const line of lines) {
      const entry = JSON.parse(line);
      assert.equal(typeof entry.level, "number", line);
      assert.equal(typeof entry.time, "number", line);
      assert.equal(typeof entry.msg, "string", line);
    }
  });

  it("everyRequestLine_carriesTheRequestId_thatTheResponseEchoed", () => {
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.req);
    assert.ok(entries.length >= 7);
    for (const e of entries) assert.match(String(e.req.id), /^[A-Za-z0-9._-]{1,64}$/, JSON.stringify(e));
    const ok = entries.filter((e) => e.req.id === "req-ok");
    assert.ok(
      ok.some((e) => e.res?.statusCode === 200),
      "completion line of req-ok",
    );
    const failed = entries.filter((e) => e.req.id === "req-502");
    assert.ok(
      failed.some((e) => e.level >= 50 && e.code === "CHAIN_UNAVAILABLE"),
      "error line of req-502",
    );
  });

  it("theApiKey_andTheAuthorizationHeader_neverAppearInAnyLine", () => {
    const all = lines.join("\n");
    assert.ok(!all.includes(key), "the API key was logged");
    assert.ok(!all.includes(key.slice(3, 20)), "part of the API key was logged");
    assert.doesNotMatch(all, /"authorization"\s*:/i, "the Authorization header was logged");
    assert.doesNotMatch(all, /(Bearer|Basic) pk_/, "a credential was logged");
  });

  it("chainErrors_areLogged_withoutTheRpcUrlsCredential", () => {
    assert.ok(!lines.join("\n").includes(RPC_SECRET), "the RPC URL's secret was logged");
  });
});
