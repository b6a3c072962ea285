import assert from "node:assert/strict";
import { id as labelHash, parseUnits, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, PSPVault__factory, Points__factory } from "@points/contracts";
import type { DevNode } from "@points/testkit";
import { screenshot } from "./browser.js";
import { signInDialog, submitForm } from "./flow.js";
import type { TestWallet } from "./wallet.js";

/**
 * Dashboard actions and mistakes of the console e2e walk (test/e2e.console.test.ts), each checked
 * on chain; kept here so the walk's file stays short. They run in the walk's order.
 */
export interface Walk {
  page: Page;
  api: { url: string };
  node: DevNode;
  program: { factory: string; points: string; pspVault: string };
  brand: Wallet;
  alice: Wallet;
  wallet: TestWallet;
}

const SP = (n: string) => parseUnits(n, 18);

export async function overBudget({ page, api, node, program, brand, alice, wallet }: Walk) {
  await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "1000" });
  const alert = page.getByRole("dialog").getByRole("alert");
  await alert
    .getByText(
      "This campaign has 460 ACME left; 1,000 ACME would exceed it. Fund the campaign or issue at most 460 ACME.",
    )
    .waitFor();
  await screenshot(page, "mistake-over-budget");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  const vault = PSPVault__factory.connect(program.pspVault, node.provider);
  assert.equal((await vault.getCampaign(labelHash("summer"))).available, SP("460"), "nothing was issued");
}

export async function mistypedAddress({ page, api, node, program, brand, alice, wallet }: Walk) {
  // One letter's case flipped: the EIP-55 checksum no longer matches.
  const i = alice.address.slice(2).search(/[a-fA-F]/) + 2;
  const c = alice.address[i];
  const typo =
    alice.address.slice(0, i) +
    (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) +
    alice.address.slice(i + 1);
  const sent = wallet.calls.length;
  await submitForm(page, "issue-psp", { Holder: typo, "Amount (pSP)": "1" });
  const form = page.locator('form[data-form="issue-psp"]');
  await form
    .getByText("This address has a typo: its capital letters do not match its checksum. Copy it again.")
    .waitFor();
  assert.equal(await form.getByLabel("Holder", { exact: true }).getAttribute("aria-invalid"), "true");
  assert.equal(await page.getByRole("dialog").isVisible(), false, "no dialog opens");
  assert.equal(wallet.calls.length, sent, "the wallet was not asked");
  await screenshot(page, "mistake-mistyped-address");
}

export async function fund({ page, api, node, program, brand, alice, wallet }: Walk) {
  await page.goto(`${api.url}/console/program/campaigns/${labelHash("summer")}`);
  const vault = PSPVault__factory.connect(program.pspVault, node.provider);
  const before = await vault.getCampaign(labelHash("summer"));
  await submitForm(page, "fund", { "Amount (ACME)": "10" });
  // The campaign's creation spent its SP allowance: funding asks for a new approval first.
  await signInDialog(page, "fund", { approval: true });
  const after = await vault.getCampaign(labelHash("summer"));
  assert.equal(after.budget, before.budget + SP("10"));
  assert.equal(after.available, before.available + SP("10"));
  await page
    .getByTestId("campaign-available")
    .filter({ hasText: /^470 ACME$/ })
    .waitFor();
}

export async function expire({ page, api, node, program, brand, alice, wallet }: Walk) {
  const vault = PSPVault__factory.connect(program.pspVault, node.provider);
  await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "5" });
  await signInDialog(page, "issue-before-expire");
  assert.equal(await vault.balanceOf(labelHash("summer"), alice.address), SP("5"));
  await submitForm(page, "expire", { Holder: alice.address, "Amount (pSP)": "5" });
  await signInDialog(page, "expire");
  assert.equal(await vault.balanceOf(labelHash("summer"), alice.address), 0n);
  const c = await vault.getCampaign(labelHash("summer"));
  assert.deepEqual([c.available, c.outstanding], [SP("470"), 0n]);
}

export async function close({ page, api, node, program, brand, alice, wallet }: Walk) {
  const vault = PSPVault__factory.connect(program.pspVault, node.provider);
  const points = Points__factory.connect(program.points, node.provider);
  const spBefore = await points.balanceOf(brand.address);
  await submitForm(page, "close", {});
  await page.getByRole("dialog").getByText("Check before signing:").waitFor();
  await signInDialog(page, "close");
  const c = await vault.getCampaign(labelHash("summer"));
  assert.equal(c.status, 3n, "Closed");
  assert.equal(c.available, 0n);
  // 470 SP available less the 3 pSP issued before closing (they outlive the campaign).
  assert.equal(await points.balanceOf(brand.address), spBefore + SP("467"), "the unused budget came back");
  await page.getByText("Closed", { exact: true }).first().waitFor();
  // A closed campaign offers only what the chain still accepts: settle, expire and transfer.
  for (const id of ["fund", "close"]) await page.getByTestId(`${id}-unavailable`).waitFor();
  await page.getByRole("tab", { name: "Issue, settle, expire", exact: true }).click();
  await page.getByTestId("issue-psp-unavailable").waitFor();
  assert.equal(
    await page.getByTestId("issue-psp-unavailable").innerText(),
    "The campaign is closed for good: no more pSP can be issued.",
  );
  // The tab that would hold the button is the one showing.
  await page.locator('form[data-form="settle"]').waitFor();
  assert.equal(await page.getByRole("button", { name: "Issue pSP", exact: true }).count(), 0);
  for (const id of ["settle", "expire", "psp-transfer"])
    assert.equal(await page.getByTestId(`${id}-unavailable`).count(), 0);
}

export async function pauseAndUnpause({ page, api, node, program, brand, alice, wallet }: Walk) {
  const factory = Factory__factory.connect(program.factory, node.provider);
  await page.getByRole("link", { name: "Roles", exact: true }).click();
  await page.getByRole("button", { name: "Pause Factory", exact: true }).click();
  await page.getByRole("dialog").getByText("Check before signing:").waitFor();
  await signInDialog(page, "pause-factory");
  assert.equal(await factory.paused(), true);
  await page.getByRole("button", { name: "Unpause Factory", exact: true }).click();
  await signInDialog(page, "unpause-factory");
  assert.equal(await factory.paused(), false);
}

export async function grantAndRevoke({ page, api, node, program, brand, alice, wallet }: Walk) {
  const factory = Factory__factory.connect(program.factory, node.provider);
  const manager = await factory.MANAGER_ROLE();
  await page.getByLabel("Contract", { exact: true }).selectOption("factory");
  await page.getByLabel("Role", { exact: true }).selectOption("MANAGER_ROLE");
  // The options read in words; the value stays the on-chain constant.
  assert.equal(await page.getByLabel("Role", { exact: true }).locator("option:checked").innerText(), "Manager");
  assert.equal(await page.getByLabel("Contract", { exact: true }).locator("option:checked").innerText(), "Factory");
  await page.getByLabel("Account", { exact: true }).fill(alice.address);
  await page.getByRole("button", { name: "Grant", exact: true }).click();
  await page.getByRole("dialog").getByText("Check before signing:").waitFor();
  await signInDialog(page, "grant");
  assert.equal(await factory.hasRole(manager, alice.address), true);
  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  await signInDialog(page, "revoke");
  assert.equal(await factory.hasRole(manager, alice.address), false);
}
