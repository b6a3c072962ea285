import assert from "node:assert/strict";
import { id as labelHash } from "ethers";
import { auditPage } from "./audit.js";
import type { Walk } from "./actions.js";

const TABS = ["Issue, settle, expire", "Allowlists", "Minters", "Admin"];

/**
 * A campaign's actions sit in four tabs (src/components/Tabs.tsx): the WAI-ARIA roles, arrow,
 * Home and End keys, and the chosen tab in the URL, so a link or a reload opens it.
 */
export async function campaignTabs({ page, api }: Walk) {
  const url = `${api.url}/console/program/campaigns/${labelHash("summer")}`;
  const list = page.getByRole("tablist", { name: "Campaign actions" });
  const tab = (name: string) => list.getByRole("tab", { name, exact: true });
  const selected = async () => (await list.getByRole("tab", { selected: true }).innerText()).trim();
  const visible = (form: string) => page.locator(`form[data-form="${form}"]`).isVisible();
  // A key chooses a tab through the URL, and React renders the choice after the key press has
  // returned: wait for the tab to be selected (and the one panel to show), then read the state.
  const chosen = async (name: string, shown: string, hidden: string) => {
    await list.getByRole("tab", { name, exact: true, selected: true }).waitFor();
    await page.locator(`form[data-form="${shown}"]`).waitFor({ state: "visible" });
    await page.locator(`form[data-form="${hidden}"]`).waitFor({ state: "hidden" });
    assert.equal(await selected(), name, "one tab selected");
  };
  await list.waitFor();
  assert.deepEqual(
    (await list.getByRole("tab").allInnerTexts()).map((t) => t.trim()),
    TABS,
  );
  assert.equal(await selected(), "Issue, settle, expire", "the first tab without ?tab=");
  assert.deepEqual([await visible("issue-psp"), await visible("configure-minter")], [true, false]);
  // One tab stop: the chosen tab only; the arrows move between tabs and choose them.
  assert.deepEqual(await list.getByRole("tab").evaluateAll((els) => els.map((e) => e.getAttribute("tabindex"))), [
    "0",
    "-1",
    "-1",
    "-1",
  ]);
  await tab("Issue, settle, expire").focus();
  await page.keyboard.press("ArrowRight");
  await chosen("Allowlists", "settlement-whitelist", "issue-psp");
  assert.equal(await tab("Allowlists").evaluate((e) => e === document.activeElement), true, "focus follows");
  await page.waitForURL(`${url}?tab=allowlists`);
  await page.keyboard.press("End");
  await chosen("Admin", "fund", "settlement-whitelist");
  await page.waitForURL(`${url}?tab=admin`);
  await page.keyboard.press("ArrowRight");
  await chosen("Issue, settle, expire", "issue-psp", "fund"); // wraps round
  await page.waitForURL(url);
  await page.keyboard.press("ArrowLeft");
  await chosen("Admin", "fund", "issue-psp");
  await page.keyboard.press("Home");
  await chosen("Issue, settle, expire", "issue-psp", "fund");
  // The panel is labelled by its tab.
  const panel = page.getByRole("tabpanel", { name: "Issue, settle, expire" });
  assert.equal(await panel.locator('form[data-form="settle"]').count(), 1);
  // A link opens its tab, and a reload keeps it.
  await page.goto(`${url}?tab=minters`);
  await chosen("Minters", "configure-minter", "issue-psp");
  await page.reload();
  await chosen("Minters", "configure-minter", "issue-psp");
  await auditPage(page, "dashboard-campaign-tabs");
}
