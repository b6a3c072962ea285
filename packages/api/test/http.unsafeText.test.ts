import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";

const FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const JSON_HEADERS = { "content-type": "application/json" };

/** Strings PostgreSQL cannot hold, and nesting no schema needs, are refused at validation. */
describe("bytes the database cannot hold are refused at the edge", () => {
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    // Refusals need no chain: the RPC is a closed port.
    api = await startApi("http://127.0.0.1:9", { WORKER: "off", RPC_TIMEOUT_MS: "500" });
    auth = { ...(await bearerFor(api.service, "unsafe")), ...JSON_HEADERS };
  });
  after(() => api?.close());

  const post = (path: string, body: unknown) =>
    send(api.url, "POST", path, { body: JSON.stringify(body), headers: auth });
  const fieldOf = (res: { body: any }) => res.body.error.details.issues[0].field as string;

  it("nulInAPathParameter_is400NamingIt_notA500FromTheDatabase", async () => {
    const res = await send(api.url, "GET", "/api/v1/contracts/factories/ac%00me");
    assertError(res, "INVALID_INPUT");
    assert.equal(res.body.error.message, "params.id: must not contain NUL characters or unpaired UTF-16 surrogates");
    assert.equal(fieldOf(res), "params.id");
  });

  it("nulInTheProgramQuery_is400NamingIt", async () => {
    const res = await send(api.url, "GET", "/api/v1/evm/factory/state?program=a%00b");
    assertError(res, "INVALID_INPUT");
    assert.equal(fieldOf(res), "query.program");
  });

  it("unpairedSurrogateInABodyString_is400NamingIt_whilePairedOnesPass", async () => {
    const body = { campaignId: "launch", from: FROM, metadata: "broken \ud800 text" };
    const res = await post("/studio/sdk/v1/tx/psp/pause-campaign", {
      ...body,
      metadata: undefined,
      program: "x\udc00",
    });
    assertError(res, "INVALID_INPUT");
    assert.equal(fieldOf(res), "body.program");
    const emoji = await post("/studio/sdk/v1/tx/psp/pause-campaign", {
      campaignId: "launch",
      from: FROM,
      program: "😀",
    });
    assertError(emoji, "NOT_FOUND");
  });

  it("nulInAnObjectKey_is400NamingTheKey", async () => {
    const res = await post("/studio/sdk/v1/tx/psp/mint", {
      campaignId: "launch",
      to: FROM,
      amount: "1",
      from: FROM,
      "meta\u0000data": "x",
    });
    assertError(res, "INVALID_INPUT");
    assert.equal(
      res.body.error.message,
      "body.meta\\u0000data: key must not contain NUL characters or unpaired UTF-16 surrogates",
    );
  });

  it("nulInANestedBodyString_is400NamingThePath", async () => {
    const res = await send(api.url, "POST", "/api/v1/build/mint", {
      body: JSON.stringify({ input: { asset: FROM, amount: "1", receiver: "0x\u0000" }, key: FROM }),
      headers: JSON_HEADERS,
    });
    assertError(res, "INVALID_INPUT");
    assert.equal(fieldOf(res), "body.input.receiver");
  });

  it("a100kBodyOfOpenBrackets_is400_andDeeplyNestedValidJson_is400_neverA5xx", async () => {
    const brackets = await send(api.url, "POST", "/api/v1/build/mint", {
      body: "[".repeat(100_000),
      headers: JSON_HEADERS,
    });
    assertError(brackets, "INVALID_INPUT");
    const nested = await send(api.url, "POST", "/api/v1/build/mint", {
      body: "[".repeat(50_000) + "]".repeat(50_000),
      headers: JSON_HEADERS,
    });
    assertError(nested, "INVALID_INPUT");
    assert.equal(
      nested.body.error.message,
      "body.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0: must not nest deeper than 32 levels",
    );
  });
});
