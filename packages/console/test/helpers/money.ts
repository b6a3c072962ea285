import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Walk } from "./actions.js";
import { PSPVault__factory } from "@points/contracts";
import { id as labelHash, parseUnits } from "ethers";
import { screenshot } from "./browser.js";
import { signInDialog, submitForm } from "./flow.js";
import { auditPage } from "./audit.js";

const PARTS = ["available", "outstanding", "settled", "returnedAtClose", "expiredAfterClose"] as const;
type Parts = Record<(typeof PARTS)[number] | "budget", string>;
/** Lines of the written-out sums, by `<sum>-<line>` (src/dashboard/money/campaignMoney.ts moneyFlow). */
type Flow = Record<string, string>;
const exactly = (sp: string) => new RegExp(`^${sp.replace(/[.,]/g, "\\$&")} ACME$`);

/**
 * The campaign page's "Where the budget went" shows each part in SP as expected, says they add up,
 * and the parts (as whole SP typed here) sum to the budget the contract holds, to the wei.
 */
export async function expectMoney(
  { page, node, program }: Pick<Walk, "page" | "node" | "program">,
  want: Parts,
  flow: Flow = {},
) {
  const card = page.getByTestId("campaign-money");
  await page.getByTestId("money-adds-up").waitFor();
  for (const key of [...PARTS, "budget"] as const) {
    await card
      .getByTestId(`money-${key}`)
      .locator(".amount")
      .filter({ hasText: exactly(want[key]) })
      .waitFor();
  }
  // The sums are tables of their own under the five parts ("campaign-money" is the parts' table).
  for (const [line, sp] of Object.entries(flow)) {
    await page
      .getByTestId(`flow-${line}`)
      .locator(".amount")
      .filter({ hasText: exactly(sp) })
      .waitFor();
  }
  const onChain = await PSPVault__factory.connect(program.pspVault, node.provider).getCampaign(labelHash("summer"));
  const sp = (n: string) => parseUnits(n.replace(/,/g, ""), 18);
  assert.equal(onChain.budget, sp(want.budget));
  assert.equal(
    PARTS.reduce((s, k) => s + sp(want[k]), 0n),
    onChain.budget,
    "the five parts add up to the budget",
  );
}

/** The text of a chart's figures table (opened from its disclosure), one line per row. */
export async function chartFigures(page: Page, testId: string): Promise<string[]> {
  const chart = page.getByTestId(testId);
  await chart.locator("canvas").first().waitFor();
  await chart.getByText("Figures", { exact: true }).click();
  const rows = await chart.locator("tbody tr").allInnerTexts();
  return rows.map((r) => r.replace(/\s+/g, " ").trim());
}

/** After the 40 pSP settlement: the money adds up, and the burn-down ends at the 460 SP left. */
export async function settledMoneyAndBurnDown(w: Walk) {
  await expectMoney(
    w,
    {
      available: "460",
      outstanding: "0",
      settled: "40",
      returnedAtClose: "0",
      expiredAfterClose: "0",
      budget: "500",
    },
    { "budget-issued": "40", "budget-clawedBackWhileOpen": "0", "issued-clawedBack": "0" },
  );
  assert.deepEqual((await chartFigures(w.page, "chart-burn-down")).at(-1)?.split(" ").slice(-2), ["460", "ACME"]);
}

/** The overview's pictures, read from the ledger: their figures tables say what the chain did. */
export async function overviewPictures({ page }: Walk, minter: string) {
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  // The pictures load once scrolled to.
  await page.getByTestId("pictures").scrollIntoViewIfNeeded();
  assert.deepEqual(await chartFigures(page, "chart-psp"), ["summer 0 ACME 40 ACME 0 ACME"]);
  assert.match((await chartFigures(page, "chart-supply")).at(-1)!, / 1,000 ACME [\d,.]+ \S+$/);
  const issued = await chartFigures(page, "chart-issuance");
  assert.deepEqual(
    issued.map((r) => r.split(" ").slice(1)),
    [[minter, "40", "ACME"]],
  );
  await chartFigures(page, "chart-redemptions");
  await screenshot(page, "overview-charts");
  await auditPage(page, "dashboard-overview-charts");
  // Back to the campaign, where the walk goes on.
  await page.goBack();
  await page.getByTestId("campaign-money").waitFor();
}

/** pSP issued just before closing: it outlives the campaign. */
export async function issueBeforeClose({ page, node, program, alice }: Walk) {
  await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "3" });
  await signInDialog(page, "issue-before-close");
  const c = await PSPVault__factory.connect(program.pspVault, node.provider).getCampaign(labelHash("summer"));
  assert.deepEqual([c.available, c.outstanding], [parseUnits("467", 18), parseUnits("3", 18)]);
}

/** After closing: 467 SP returned, then the 3 outstanding pSP expire and leave the budget for good. */
export async function closedMoneyThenExpireAfterClose(w: Walk) {
  const closed = { available: "0", settled: "40", returnedAtClose: "467", budget: "510" };
  // 48 issued: 40 settled, 5 clawed back while open (back into available), 3 outstanding.
  const flow = { "budget-issued": "48", "budget-clawedBackWhileOpen": "5", "budget-returnedAtClose": "467" };
  await expectMoney(w, { ...closed, outstanding: "3", expiredAfterClose: "0" }, { ...flow, "issued-clawedBack": "5" });
  await submitForm(w.page, "expire", { Holder: w.alice.address, "Amount (pSP)": "3" });
  await signInDialog(w.page, "expire-after-close");
  const c = await PSPVault__factory.connect(w.program.pspVault, w.node.provider).getCampaign(labelHash("summer"));
  assert.deepEqual([c.available, c.outstanding], [0n, 0n], "expired after closing: not back into available");
  await expectMoney(w, { ...closed, outstanding: "0", expiredAfterClose: "3" }, { ...flow, "issued-clawedBack": "8" });
  await screenshot(w.page, "campaign-money-closed");
}
