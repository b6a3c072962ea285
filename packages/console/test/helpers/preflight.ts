import assert from "node:assert/strict";
import { Wallet } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, MockStablecoin__factory } from "@points/contracts";
import { screenshot } from "./browser.js";
import { submitForm } from "./flow.js";
import type { Walk } from "./actions.js";

/** The program's first collateral asset and the symbol it gives itself. */
export async function collateralOf({ node, program }: Pick<Walk, "node" | "program">) {
  const asset = (await Factory__factory.connect(program.factory, node.provider).assets())[0]!;
  const token = MockStablecoin__factory.connect(asset, node.provider);
  return { asset, token, symbol: await token.symbol() };
}

/** Mint SP with no collateral in the wallet: a sentence at the form, no approval, nothing sent. */
export async function mintWithoutCollateral(w: Walk) {
  const { page, brand, wallet } = w;
  const { token, symbol } = await collateralOf(w);
  assert.equal(await token.balanceOf(brand.address), 0n, "a fresh program: the wallet holds no collateral");
  // The check reads through the wallet's provider (eth_call); nothing may ask it to send.
  const sends = () => wallet.calls.filter((m) => m === "eth_sendTransaction").length;
  const sent = sends();
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await submitForm(page, "mint-sp", { [`Collateral amount (${symbol})`]: "1000" });
  await page
    .getByTestId("mint-sp-blocked")
    .getByText(
      `Your wallet holds 0 ${symbol}; minting with 1,000 ${symbol} needs at least that much. Get ${symbol} first, or mint with less.`,
    )
    .waitFor();
  assert.equal(await page.getByRole("dialog").isVisible(), false, "no approval was asked for");
  assert.equal(sends(), sent, "the wallet was not asked to send");
  await screenshot(page, "mistake-mint-without-collateral");
}

/**
 * Mint SP to a receiver that is not on the transfer allowlist: the sentence names the receiver and
 * offers the admin the allowlist change, before any collateral approval; nothing is sent.
 */
export async function mintToAnUnlistedReceiver(w: Walk) {
  const { page, wallet } = w;
  const { symbol } = await collateralOf(w);
  const receiver = Wallet.createRandom().address;
  const sends = () => wallet.calls.filter((m) => m === "eth_sendTransaction").length;
  const sent = sends();
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await submitForm(page, "mint-sp", { [`Collateral amount (${symbol})`]: "1", "Receiver (default: you)": receiver });
  const blocked = page.getByTestId("mint-sp-blocked");
  await blocked
    .getByText(
      `The receiver ${receiver} is not on the transfer allowlist, and a mint needs its receiver on it, so the mint would fail. You are the token's admin: add it first, then mint.`,
    )
    .waitFor();
  await blocked.getByRole("button", { name: `Add ${receiver} to the transfer allowlist` }).waitFor();
  assert.equal(await page.getByRole("dialog").isVisible(), false, "no approval was asked for");
  assert.equal(sends(), sent, "the wallet was not asked to send");
  // The form keeps what was typed: the next mint goes to the wallet itself again.
  await page.locator('form[data-form="mint-sp"]').getByLabel("Receiver (default: you)", { exact: true }).fill("");
}

/** The approval prompt names the token by its own symbol and by its address (shortened, copy button). */
export async function expectApprovalToken(page: Page, token: string, amount: string) {
  const approval = page.getByRole("dialog").getByTestId("approval-token");
  await approval.getByText(amount).waitFor();
  await approval.getByText(`${token.slice(0, 6)}…${token.slice(-4)}`).waitFor();
  await approval.getByRole("button", { name: `Copy ${token}` }).waitFor();
}
