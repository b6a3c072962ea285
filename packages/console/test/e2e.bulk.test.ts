import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress, id as labelHash, keccak256, parseUnits, toUtf8Bytes } from "ethers";
import type { Page } from "playwright-core";
import * as pointsApi from "@points/api";
import { PSPVault__factory } from "@points/contracts";
import {
  deployProgram,
  devWallet,
  fundedCampaign,
  startApi,
  startNode,
  type DevNode,
  type TestApi,
} from "@points/testkit";
import { launch, screenshot, watchProblems, type PageProblem } from "./helpers/browser.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { signIn } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const ROWS = 1_000;
const CAMPAIGN = "drop";
const SP = (v: string) => parseUnits(v, 18);
/** Row i's holder: fresh, deterministic, checksummed. */
const holder = (i: number) => getAddress("0x" + keccak256(toUtf8Bytes(`bulk-holder:${i}`)).slice(-40));
/** Row i's amount in SP: i + 1 and a quarter, so every amount has decimals. */
const amount = (i: number) => `${i + 1}.25`;
const sends = (w: TestWallet) => w.calls.filter((c) => c === "eth_sendTransaction").length;

describe("console e2e: bulk drops, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;
  let wallet: TestWallet;
  let problems: PageProblem[];
  let vault: ReturnType<typeof PSPVault__factory.connect>;

  /** Puts CSV text into the page through its file input, as choosing a file does. */
  const upload = (name: string, text: string) =>
    page
      .getByLabel("CSV file", { exact: true })
      .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    const { record, usdc } = await deployProgram(node.provider, "bulkbrand");
    // The label in the creation metadata is what every page names the campaign by.
    await fundedCampaign(node.provider, record, usdc, CAMPAIGN, 600_000n, JSON.stringify({ label: CAMPAIGN }));
    // The campaign picker reads the ledger: it follows the head of this on-demand chain.
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      RATE_LIMIT_BULK_PER_MINUTE: "100",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(record);
    const brand = devWallet(1, node.provider);
    const { email } = await pointsApi.createDevProgramAccount(api.service.ctx, "bulkbrand", brand.address);
    vault = PSPVault__factory.connect(record.pspVault, node.provider);

    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(60_000);
    problems = watchProblems(page);
    wallet = await injectWallet(page, node.provider, brand);
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, email);
    await page.getByRole("link", { name: "Bulk drops", exact: true }).click();
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page
      .getByLabel("Campaign", { exact: true })
      .locator("option", { hasText: CAMPAIGN })
      .waitFor({ state: "attached" });
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  it("badRows_areListedByRowFieldAndReason_andNothingIsBuilt", async () => {
    // One letter's case flipped: the EIP-55 checksum no longer matches.
    const typo = holder(1).replace(/[a-f]/, (c) => c.toUpperCase());
    assert.notEqual(typo, holder(1));
    const csv = [
      "address,amount",
      `${holder(0)},1`,
      `${typo},2`,
      `${holder(2)},1.1234567890123456789`,
      `${holder(0).toLowerCase()},3`,
    ].join("\n");
    const before = sends(wallet);
    await upload("bad.csv", csv);
    await page.getByRole("button", { name: "Check rows (dry run)" }).click();
    const table = page.getByRole("table", { name: "Bad rows" });
    await table.waitFor();
    const rows = await table
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
    assert.deepEqual(rows, [
      ["2", "3", "address", "has a wrong EIP-55 checksum (mixed case): check for a typo, or send it in lowercase"],
      ["3", "4", "amount", "has 19 decimals; the token has 18"],
      ["4", "5", "address", "duplicates row 1: an address may appear once"],
    ]);
    await page.getByText("3 bad rows: nothing was built").waitFor();
    assert.equal(await page.getByRole("button", { name: /Sign and send/ }).count(), 0, "nothing to sign");
    assert.equal(sends(wallet), before, "the wallet was not asked");
    assert.equal((await vault.getCampaign(labelHash(CAMPAIGN))).outstanding, 0n);
    await screenshot(page, "bulk-bad-rows");
    await auditPage(page, "bulk-bad-rows");
  });

  it("perRowMetadata_thatSplitsTheDrop_isSaidWithItsSignatureCount_andCanBeDroppedBeforeSigning", async () => {
    // Six rows, two texts alternating: each row starts a transaction of its own.
    const lines = Array.from({ length: 6 }, (_, i) => `${holder(1000 + i)},1,${i % 2 ? '"order, odd"' : "order even"}`);
    await upload("tagged.csv", ["address,amount,metadata", ...lines].join("\n"));
    await page.getByRole("button", { name: "Check rows (dry run)" }).click();
    const dry = page.getByTestId("bulk-dry-run");
    await dry.getByTestId("bulk-metadata-split").waitFor();
    assert.equal(await dry.getByTestId("bulk-chunks").innerText(), "6");
    assert.match(
      await dry.getByTestId("bulk-metadata-split").innerText(),
      /6 rows with 2 different texts need 6 signatures/,
    );
    // The token's symbol is read from the chain: amounts show it once it is there.
    await dry
      .getByTestId("bulk-total")
      .filter({ hasText: / ACME$/ })
      .waitFor();
    // Each transaction's review: its rows, amount and metadata, before anything is signed.
    await dry.getByText("Review the 6 transactions to sign").click();
    const reviewed = await dry
      .getByRole("table", { name: "Transactions to sign" })
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "").slice(0, 4)),
      );
    assert.deepEqual(reviewed.slice(0, 2), [
      ["1", "row 1", "1 ACME", "order even"],
      ["2", "row 2", "1 ACME", "order, odd"],
    ]);
    await screenshot(page, "bulk-metadata-split");

    await dry.getByRole("button", { name: "Drop per-row metadata and check again" }).click();
    await page.locator('[data-testid="bulk-chunks"]', { hasText: /^1$/ }).waitFor();
    assert.equal(await page.getByTestId("bulk-metadata-split").count(), 0);
    assert.equal(await page.getByTestId("bulk-rows").innerText(), "6");
    const rows = await page.getByLabel("Rows (address,amount[,metadata])").inputValue();
    assert.ok(!rows.includes("order"), rows);
    assert.equal(sends(wallet), 0, "nothing was signed");
    await auditPage(page, "bulk-metadata-dropped");
  });

  it("aThousandRowCsv_dryRunShowsExactTotals_thenEveryChunkLandsOnce_evenAfterARejectionAndAReload", async () => {
    const lines = Array.from(
      { length: ROWS },
      (_, i) => `${i % 3 === 0 ? holder(i).toLowerCase() : holder(i)},${amount(i)}`,
    );
    const total = Array.from({ length: ROWS }, (_, i) => SP(amount(i))).reduce((a, b) => a + b, 0n);
    assert.equal(total, SP("500750"));
    await upload("drop.csv", ["address,amount", ...lines].join("\n"));
    await page.getByRole("button", { name: "Check rows (dry run)" }).click();
    const dry = page.getByTestId("bulk-dry-run");
    await dry
      .getByTestId("bulk-total")
      .filter({ hasText: / ACME$/ })
      .waitFor();
    assert.equal(await dry.getByTestId("bulk-rows").innerText(), "1,000");
    assert.equal(await dry.getByTestId("bulk-total").innerText(), "500,750 ACME");
    assert.equal(await dry.getByTestId("bulk-budget").innerText(), "600,000 ACME (99,250 ACME left after)");
    assert.equal(await dry.getByTestId("bulk-not-allowed").innerText(), "0");
    const n = Number(await dry.getByTestId("bulk-chunks").innerText());
    // 1,000 new holders cost about 27 M gas: more than one 10 M transaction, fewer than 1,000.
    assert.ok(n >= 3 && n < 20, `chunks: ${n}`);
    assert.equal(sends(wallet), 0, "nothing signed before the dry run was seen");
    await screenshot(page, "bulk-dry-run");
    await auditPage(page, "bulk-dry-run");

    // The wallet signs the first chunk and refuses the second: the drop stops there.
    wallet.rejectAfter(1);
    await page.getByRole("button", { name: `Sign and send ${n} transactions` }).click();
    await page.getByRole("button", { name: "Resume" }).waitFor();
    assert.equal(await page.getByTestId("bulk-chunk-1").getAttribute("data-status"), "mined");
    assert.equal(await page.getByTestId("bulk-chunk-2").getAttribute("data-status"), "failed");
    const firstChunk = (await vault.getCampaign(labelHash(CAMPAIGN))).outstanding;
    assert.ok(firstChunk > 0n && firstChunk < total);
    await screenshot(page, "bulk-failed");

    // A reload keeps the plan (not the URL): the first chunk is found on chain, Resume sends the rest.
    assert.equal(new URL(page.url()).pathname, "/console/program/bulk");
    assert.equal(new URL(page.url()).search, "");
    await page.reload();
    await page.locator('[data-testid="bulk-chunk-1"][data-status="landed"]').waitFor();
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByText(`All ${n} transactions are on chain.`).waitFor({ timeout: 120_000 });
    assert.equal(sends(wallet), n + 1, "every chunk sent once, plus the refused attempt");
    for (let k = 1; k <= n; k++) {
      assert.match(String(await page.getByTestId(`bulk-chunk-${k}`).getAttribute("data-status")), /^(mined|landed)$/);
    }
    await screenshot(page, "bulk-done");
    await auditPage(page, "bulk-done");

    const c = await vault.getCampaign(labelHash(CAMPAIGN));
    assert.equal(c.outstanding, total, "total outstanding, exact to the wei");
    assert.equal(c.available, SP("600000") - total);
    for (const i of [0, 1, 2, 499, 998, 999]) {
      assert.equal(await vault.balanceOf(labelHash(CAMPAIGN), holder(i)), SP(amount(i)), `row ${i + 1}`);
    }
    assert.deepEqual(
      problems.filter((p) => p.kind === "pageerror"),
      [],
    );
  });
});
