import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { Page } from "playwright-core";
import type { TestApi } from "@points/testkit";
import type { Walk } from "./actions.js";
import { auditPage } from "./audit.js";
import { screenshot } from "./browser.js";
import { signIn, signOut, stepNow } from "./flow.js";
import { press, typeInto } from "./keyboard.js";
import type { TestWallet } from "./wallet.js";

/**
 * The nine wizard steps of the console e2e walk (test/e2e.console.test.ts), in its order: each
 * leaves the page where the next begins. Kept here so the walk's file reads as its list of rules.
 */
export interface WizardWalk {
  page: Page;
  api: Pick<TestApi, "url" | "call">;
  wallet: TestWallet;
  brand: Wallet;
}

export const EMAIL = "ada@example.com";
export const BRAND = "acme";

/** Step 1: the e-mail's code, read from the dev mailbox, signs in; the wallet step comes next. */
export async function signInWithTheMailedCode({ page, api, wallet, brand }: WizardWalk) {
  await page.goto(`${api.url}/console/`);
  await screenshot(page, "step1-email");
  await auditPage(page, "sign-in");
  await signIn(page, api.url, EMAIL, "step1-code");
  await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
  assert.equal(await stepNow(page, "Connect wallet"), "Connect wallet");
}

/** Step 2: the injected wallet connects, and continuing proves it (Sign-In with Ethereum). */
export async function connectTheWallet({ page, api, wallet, brand }: WizardWalk) {
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByText(brand.address).first().waitFor();
  await page.getByText("Wallet not proven").waitFor();
  await screenshot(page, "step2-wallet");
  await auditPage(page, "wizard-2-wallet");
  // Continuing proves the wallet: it signs the Sign-In with Ethereum message for this session.
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "Your organization" }).waitFor();
  assert.ok(wallet.calls.includes("eth_requestAccounts"));
  assert.ok(wallet.calls.includes("personal_sign"));
}

/** Step 3, by keyboard: a website that is not a URL is refused at the field, a good one saved. */
export async function organization({ page, api, wallet, brand }: WizardWalk) {
  await typeInto(page, page.getByLabel("Organization name", { exact: true }), "Acme Coffee");
  await typeInto(page, page.getByLabel("Website", { exact: true }), "not a url");
  await typeInto(page, page.getByLabel("Description", { exact: true }), "Coffee shops with a loyalty program.");
  await press(page, page.getByRole("button", { name: "Continue" }));
  await page.getByText("Must be a full web address").waitFor();
  await screenshot(page, "step3-validation");
  await auditPage(page, "wizard-3-organization");
  await typeInto(page, page.getByLabel("Website", { exact: true }), "https://acme.example");
  await press(page, page.getByRole("button", { name: "Continue" }));
  await page.getByRole("heading", { name: "Choose the chain" }).waitFor();
}

/** Signing out and in again resumes at the chain step. */
export async function resumeAfterSignOut({ page, api, wallet, brand }: WizardWalk) {
  await page.getByText("Recommended for a first deploy").waitFor();
  await signOut(page);
  await signIn(page, api.url, EMAIL);
  await page.getByRole("heading", { name: "Choose the chain" }).waitFor();
  assert.equal(await stepNow(page, "Chain"), "Chain");
}

/** Step 4, by keyboard: the Hardhat chain chosen. */
export async function chooseTheChain({ page, api, wallet, brand }: WizardWalk) {
  await press(page, page.getByRole("radio", { name: /Hardhat/ }), "Space");
  assert.equal(await page.getByRole("radio", { name: /Hardhat/ }).isChecked(), true);
  await screenshot(page, "step4-chain");
  await auditPage(page, "wizard-4-chain");
  await press(page, page.getByRole("button", { name: "Continue" }));
  await page.getByRole("heading", { name: "Token and brand" }).waitFor();
}

/** Step 5, by keyboard: the token's fields, and the brand checked as it is typed. */
export async function tokenAndBrand({ page, api, wallet, brand }: WizardWalk) {
  await typeInto(page, page.getByLabel("Token name", { exact: true }), "Acme Points");
  await typeInto(page, page.getByLabel("Token symbol", { exact: true }), "ACME");
  await typeInto(page, page.getByLabel("Token description", { exact: true }), "Points earned at Acme Coffee.");
  await typeInto(page, page.getByLabel("Logo URL", { exact: true }), "https://acme.example/logo.png");
  await typeInto(page, page.getByLabel("Token website URL", { exact: true }), "https://acme.example/points");
  await typeInto(page, page.getByLabel("Brand", { exact: true }), "Acme!");
  await page.getByText("1-32 lowercase letters and digits").first().waitFor();
  await typeInto(page, page.getByLabel("Brand", { exact: true }), BRAND);
  await page.getByText(`${BRAND} is available`).waitFor();
  await screenshot(page, "step5-token");
  await auditPage(page, "wizard-5-token");
  await press(page, page.getByRole("button", { name: "Continue" }));
  await page.getByRole("heading", { name: "Deploy your program" }).waitFor();
}

/** Step 6: the wallet proven again for this session, the deploy started. */
export async function startTheDeploy({ page, api, wallet, brand }: WizardWalk) {
  await screenshot(page, "step6-deploy");
  await auditPage(page, "wizard-6-deploy");
  // The proof of step 2 belonged to the session signed out above: this one proves the wallet again.
  await page.getByRole("alert", { name: "Wallet not proven" }).waitFor();
  await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
  await page.getByRole("alert", { name: "Wallet not proven" }).waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Deploy" }).click();
  await page.getByRole("heading", { name: `Deploying ${BRAND}` }).waitFor();
  await page.getByRole("button", { name: "Sign out and restart" }).waitFor();
}

/** Step 7: the task's five stages, each with its transaction, until it succeeds. */
export async function deployProgress({ page, api, wallet, brand }: WizardWalk) {
  await page.getByText("Status: succeeded").waitFor({ timeout: 120_000 });
  const stages = await page.locator(".stage").allInnerTexts();
  assert.equal(stages.length, 5);
  assert.ok(
    stages.some((s) => /Deploy the program[\s\S]*done[\s\S]*0x[0-9a-f]{64}/.test(s)),
    stages.join("\n"),
  );
  await screenshot(page, "step7-progress");
  await auditPage(page, "wizard-7-progress");
  await page.getByRole("button", { name: "Continue to contracts" }).click();
  await page.getByRole("heading", { name: "Your contracts" }).waitFor();
}

/** Step 8: the contracts (no explorer on a local chain), still there after signing out and in; returns them. */
export async function contracts({ page, api }: WizardWalk): Promise<Walk["program"]> {
  await page.getByText("local chain, no explorer").first().waitFor();
  await screenshot(page, "step8-contracts");
  await auditPage(page, "wizard-8-contracts");
  await signOut(page);
  await signIn(page, api.url, EMAIL);
  await page.getByRole("heading", { name: "Your contracts" }).waitFor();
  assert.equal(await stepNow(page, "Contracts"), "Contracts");
  const res = await api.call("GET", `/api/v1/contracts/factories/${BRAND}`);
  assert.equal(res.status, 200);
  const program = res.body.data as Walk["program"];
  for (const addr of [program.factory, program.points, program.pspVault]) await page.getByText(addr).first().waitFor();
  return program;
}

/** Step 9: the dashboard, with the wallet's roles and the program's contracts in words. */
export async function dashboard({ page, api, wallet, brand }: WizardWalk) {
  await page.getByRole("button", { name: "Go to the dashboard" }).click();
  await page.getByRole("link", { name: "Overview", exact: true }).waitFor();
  const roles = page.getByRole("list", { name: "Your roles" });
  await roles.getByText(/^Factory: Admin, Manager, Pauser$/).waitFor();
  // The contracts are named in words; the on-chain name sits behind each one's "id" disclosure.
  const contracts = page.getByRole("table", { name: "Program contracts" }).getByRole("rowheader");
  await contracts.first().getByText("running").waitFor();
  assert.deepEqual(
    (await contracts.allInnerTexts()).map((t) => t.split("\n")[0]!.trim()),
    ["Factory", "Points token", "Collateral vault", "Campaign vault"],
  );
  await screenshot(page, "step9-dashboard");
  await auditPage(page, "dashboard-overview");
}
