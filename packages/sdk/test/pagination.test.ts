import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { getAddress, keccak256, parseUnits, toUtf8Bytes } from "ethers";
import { createClient, PointsApiError } from "../src/index.js";
import { paginate } from "../src/paginate.js";
import { type Live, liveWithCampaign } from "./helpers/live.js";

const SP = (n: string) => parseUnits(n, 18);
const HOLDERS = 1_000;
const recipients = Array.from({ length: HOLDERS }, (_, i) =>
  getAddress("0x" + keccak256(toUtf8Bytes(`pages:${i}`)).slice(-40)),
);

// client.ledger.all: every page of a ledger list behind one `for await`, over a real index of 1,000 holders.
describe("sdk: auto-pagination of the ledger's lists", () => {
  let live: Live;
  const pageRequests: string[] = [];
  let client: ReturnType<typeof createClient>;

  before(async () => {
    live = await liveWithCampaign(parseUnits("2000", 6), "pages", SP("1500"));
    const plan = await live.client.bulk.mint({
      campaignId: "pages",
      recipients: recipients.map((a) => `${a},1`).join("\n"),
      bulkId: "pages-1",
      from: live.actors.brand.address,
    });
    await live.client.bulk.send(plan, live.actors.brand);
    // The in-process indexer follows the chain two blocks deep: mine over the last chunk and wait for the index.
    await live.node.mine(2);
    const last = recipients[HOLDERS - 1]!;
    const indexed = async () =>
      ((await live.client.ledger.holderHistory(last).catch(() => undefined))?.events.length ?? 0) > 0;
    while (!(await indexed())) await sleep(50);
    client = createClient({
      baseUrl: live.api.url,
      apiKey: live.apiKey,
      fetch: (input, init) => {
        const url = new URL(String(input));
        if (url.pathname.includes("/ledger/")) pageRequests.push(url.searchParams.get("cursor") ?? "first");
        return fetch(input, init);
      },
    });
  });
  after(() => live?.stop());

  it("all_campaignBalances_yieldsEveryHolderOnce_fetchingOnePagePerLimit", async () => {
    pageRequests.length = 0;
    let total = 0n;
    const seen = new Set<string>();
    for await (const h of client.ledger.all.campaignBalances("pages", { limit: 100 })) {
      assert.ok(!seen.has(h.holder), `${h.holder} twice`);
      seen.add(h.holder);
      total += BigInt(h.balance);
    }
    assert.deepEqual([...seen].sort(), [...recipients].sort());
    assert.equal(total, SP("1") * BigInt(HOLDERS));
    // 10 full pages; the tenth says whether more follow, and at most one empty page ends it.
    assert.ok(pageRequests.length === 10 || pageRequests.length === 11, `${pageRequests.length} requests`);
    assert.equal(pageRequests[0], "first");
    assert.equal(new Set(pageRequests).size, pageRequests.length);
  });

  it("all_campaignLedger_breakingEarly_stopsTheRequests", async () => {
    pageRequests.length = 0;
    let n = 0;
    for await (const _ of client.ledger.all.campaignLedger("pages", { limit: 50 })) if (++n === 120) break;
    assert.equal(n, 120);
    assert.equal(pageRequests.length, 3);
  });

  it("paginate_aCursorThatDoesNotMove_throwsInsteadOfLoopingForever", async () => {
    const stuck = paginate(
      async () => ({ nextCursor: "7.1", items: [1] }),
      (p) => p.items,
    );
    const got: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const x of stuck) got.push(x);
      })(),
      (e: unknown) => e instanceof PointsApiError && e.code === "NETWORK" && /same page cursor/.test(e.message),
    );
    assert.deepEqual(got, [1, 1]);
  });
});
