import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import type { TestApi } from "./helpers/service.js";
import { ledgerApiAtHead, vaultAs } from "./helpers/ledger.js";

const sp = (n: number) => parseUnits(String(n), 18).toString();
const FORMULA = '=HYPERLINK("http://evil.example","click")';
const AWKWARD = 'a "quoted", comma\nand a newline';

type Event = Record<string, any>;

// The ledger's CSV exports (API README, "CSV export"): streamed, quoted by csv-stringify,
// formula cells neutralised, the same events as the JSON routes, tenant-scoped.
describe("ledger: CSV export", () => {
  let node: DevNode;
  let api: TestApi;
  let program: ProgramRecord;
  let campaignId: string;
  let auth: Record<string, string>;
  let head: number;

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    const { brand, alice, bob } = actors(node.provider);
    const vault = vaultAs(program, brand);
    await (await vault.mint(campaignId, alice.address, sp(1), FORMULA)).wait();
    await (await vault.mint(campaignId, bob.address, sp(2), AWKWARD)).wait();
    // 1,200 more events of alice: the export reads more than one page (1,000 rows) of the table.
    for (let i = 0; i < 3; i++) {
      await (await vault.mintBatch(campaignId, Array(400).fill(alice.address), Array(400).fill(1n), "batch")).wait();
    }
    ({ api, auth, head } = await ledgerApiAtHead(node.url, node.provider, program, "acme", "csv", 60_000));
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const csv = (path: string, headers = auth) => fetch(`${api.url}${path}`, { headers });

  /** Every event of a JSON list route, oldest first (the JSON routes page newest first). */
  async function allEvents(path: string): Promise<Event[]> {
    const seen: Event[] = [];
    let cursor: string | null = null;
    do {
      const res = await api.call("GET", `${path}?limit=500${cursor ? `&cursor=${cursor}` : ""}`, undefined, auth);
      const data = (res.body as { data: { events: Event[]; nextCursor: string | null } }).data;
      seen.push(...data.events);
      cursor = data.nextCursor;
    } while (cursor);
    return seen.reverse();
  }

  /** Each CSV row is the JSON route's event, column by column. */
  function assertSameEvents(rows: Record<string, string>[], events: Event[]) {
    assert.equal(rows.length, events.length);
    rows.forEach((row, i) => {
      const e = events[i]!;
      assert.deepEqual(
        [row.blockNumber, row.logIndex, row.time, row.txHash, row.contract, row.address, row.event, row.campaignId],
        [
          String(e.blockNumber),
          String(e.logIndex),
          e.time,
          e.txHash,
          e.contract,
          e.address,
          e.event,
          e.campaignId ?? "",
        ],
        `row ${i}`,
      );
      assert.deepEqual(JSON.parse(row.args!), e.args, `row ${i} args`);
      assert.equal(row.amount, e.args.amount ?? e.args.value ?? "", `row ${i} amount`);
    });
  }

  it("holderHistory_csv_isEveryEventOfTheHolder_oldestFirst_acrossPages_withTheLedgerBlock", async () => {
    const { alice } = actors(node.provider);
    const res = await csv(`/api/v1/ledger/holders/${alice.address}/history.csv`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(res.headers.get("ledger-block"), String(head));
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="acme-${alice.address.toLowerCase()}-history.csv"`,
    );
    const text = await res.text();
    assert.equal(
      text.split("\n")[0],
      "blockNumber,logIndex,time,txHash,contract,address,event,campaignId,from,to,amount,metadata,args",
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 1201);
    assert.deepEqual(
      rows.map((r) => r.amount).filter((a) => a !== "1"),
      [sp(1)],
    );
    assertSameEvents(rows, await allEvents(`/api/v1/ledger/holders/${alice.address}/history`));
  });

  it("formulaCells_arePrefixedWithAQuote_andAwkwardTextRoundTripsExactly", async () => {
    const { alice, bob } = actors(node.provider);
    const a = parse(await (await csv(`/api/v1/ledger/holders/${alice.address}/history.csv`)).text(), {
      columns: true,
    }) as Record<string, string>[];
    assert.equal(a[0]!.metadata, `'${FORMULA}`);
    // The JSON cell keeps the exact text, and starts with "{": no spreadsheet runs it.
    assert.equal(JSON.parse(a[0]!.args!).metadata, FORMULA);
    const text = await (await csv(`/api/v1/ledger/holders/${bob.address}/history.csv`)).text();
    assert.ok(text.includes('"a ""quoted"", comma\nand a newline"'), "RFC 4180 quoting");
    const b = parse(text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      b.map((r) => [r.event, r.to, r.amount, r.metadata]),
      [["PSPMinted", bob.address, sp(2), AWKWARD]],
    );
  });

  it("campaignLedger_csv_isTheCampaignsLedger_byLabelOrId", async () => {
    const events = await allEvents("/api/v1/ledger/campaigns/launch/ledger");
    for (const ref of ["launch", campaignId]) {
      const res = await csv(`/api/v1/ledger/campaigns/${ref}/ledger.csv`);
      assert.equal(res.status, 200, ref);
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="acme-campaign-${campaignId}-ledger.csv"`,
      );
      const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.slice(0, 5).map((r) => r.event),
        ["CampaignCreated", "CampaignAdminUpdated", "CampaignFunded", "PSPMinted", "PSPMinted"],
      );
      assert.equal(rows.length, 1205);
      assertSameEvents(rows, events);
    }
  });

  it("refusals_areTheJsonEnvelope_noKey401_noReadScope403_badAddress400_otherMethod405", async () => {
    const { alice } = actors(node.provider);
    const path = `/api/v1/ledger/holders/${alice.address}/history.csv`;
    const code = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
    const none = await csv(path, {});
    assert.deepEqual([none.status, await code(none)], [401, "UNAUTHORIZED"]);
    const builder = (await api.service.ctx.keys.create("builder", ["build"])).key;
    const noScope = await csv(path, { authorization: `Bearer ${builder}` });
    assert.deepEqual([noScope.status, await code(noScope)], [403, "FORBIDDEN"]);
    for (const bad of ["/api/v1/ledger/holders/0x12/history.csv", `${path}?program=%00`]) {
      const res = await csv(bad);
      assert.deepEqual([res.status, await code(res)], [400, "INVALID_INPUT"], bad);
    }
    const unknown = await csv(`${path}?program=nobody`);
    assert.deepEqual([unknown.status, await code(unknown)], [404, "NOT_FOUND"]);
    const post = await fetch(`${api.url}${path}`, { method: "POST", headers: auth });
    assert.deepEqual(
      [post.status, await code(post), post.headers.get("allow")],
      [405, "METHOD_NOT_ALLOWED", "GET, HEAD, OPTIONS"],
    );
  });

  it("tenants_anotherTenantsKey_gets404_theOwnerAndAnAdminKeyExport", async () => {
    const { ctx } = api.service;
    const owner = await ctx.keys.create("tenant-a", ["read"]);
    const admin = await ctx.keys.create("operator", ["admin"]);
    await ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ('csv-tenant', $1, 'h', '{}', 'acme', '31337', 'succeeded', 'acme')`,
      [owner.info.id],
    );
    try {
      for (const path of [
        `/api/v1/ledger/holders/${actors(node.provider).alice.address}/history.csv?program=acme`,
        "/api/v1/ledger/campaigns/launch/ledger.csv?program=acme",
      ]) {
        const refused = await csv(path);
        assert.equal(refused.status, 404, path);
        const body = (await refused.json()) as { error: { code: string; message: string } };
        assert.deepEqual(body.error, { code: "NOT_FOUND", message: "no program with id or factory address acme" });
        for (const key of [owner.key, admin.key]) {
          const res = await csv(path, { authorization: `Bearer ${key}` });
          assert.equal(res.status, 200, path);
          assert.ok((parse(await res.text(), { columns: true }) as unknown[]).length > 1, path);
        }
      }
    } finally {
      await ctx.db.query("DELETE FROM onboarding_tasks WHERE id = 'csv-tenant'");
    }
  });
});
