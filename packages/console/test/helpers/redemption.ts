import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, MockStablecoin__factory, Points__factory } from "@points/contracts";
import { screenshot } from "./browser.js";
import { submitForm } from "./flow.js";
import type { Walk } from "./actions.js";

const SP = (n: string) => parseUnits(n, 18);
const CANCELLED = 3n;
const FINALIZED = 2n;

/** Signs the dialog's approval when the build asks for one, then the call; closes at the receipt. */
async function signWithApprovalIfAsked(page: Page, shot: string) {
  const dialog = page.getByRole("dialog");
  const approval = dialog.getByRole("button", { name: "Sign approval" });
  const send = dialog.getByRole("button", { name: "Sign and send" });
  await approval.or(send).first().waitFor();
  if (await approval.isVisible()) {
    await dialog.getByTestId("approval-token").waitFor();
    await screenshot(page, `${shot}-approval`);
    await approval.click();
  }
  await send.click();
  await dialog.getByText("Confirmed").waitFor();
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.waitFor({ state: "hidden" });
}

const requestRow = (page: Page, id: bigint) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: String(id), exact: true }) });

/**
 * Redemption from the console, checked on chain: the missing redeem allowlist entry is offered as
 * its own confirmed access change (nothing else is sent with it), then request, cancel, request
 * again and finalize once the delay has passed (evm_increaseTime).
 */
export async function redemptionWalk({ page, node, program, brand, wallet }: Walk) {
  const factory = Factory__factory.connect(program.factory, node.provider);
  const points = Points__factory.connect(program.points, node.provider);
  await page.getByRole("link", { name: "Redemption", exact: true }).click();
  assert.equal(await factory.isRedeemWhitelisted(brand.address), false, "a fresh program lists nobody");

  // 1. Not on the redeem allowlist: said before anything is built; the fix is its own transaction.
  const sent = wallet.calls.filter((m) => m === "eth_sendTransaction").length;
  const count = await factory.redeemRequestCount();
  await submitForm(page, "redeem", { "Amount (ACME)": "2" });
  const blocked = page.getByTestId("redeem-blocked");
  await blocked
    .getByText(
      `Your wallet ${brand.address} is not on the redeem allowlist, so the request would fail. You are a manager: add it first, then request.`,
    )
    .waitFor();
  assert.equal(await page.getByRole("dialog").isVisible(), false, "no dialog opened");
  assert.equal(wallet.calls.filter((m) => m === "eth_sendTransaction").length, sent, "nothing was sent");
  await screenshot(page, "redeem-not-allowlisted");
  await blocked.getByRole("button", { name: `Add ${brand.address} to the redeem allowlist` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Check before signing:").waitFor();
  await dialog
    .getByText(`Access change: ${brand.address} will be on the redeem allowlist.`, { exact: false })
    .waitFor();
  await dialog.getByRole("button", { name: "Sign and send" }).click();
  await dialog.getByText("Confirmed").waitFor();
  await dialog.getByRole("button", { name: "Done" }).click();
  assert.equal(await factory.isRedeemWhitelisted(brand.address), true);
  assert.equal(await factory.redeemRequestCount(), count, "the access change was not chained to a request");

  // 2. Request, then cancel: the escrowed SP comes back.
  const spBefore = await points.balanceOf(brand.address);
  await submitForm(page, "redeem", { "Amount (ACME)": "2" });
  await signWithApprovalIfAsked(page, "redeem-request");
  const first = count + 1n;
  assert.equal(await factory.redeemRequestCount(), first);
  assert.equal(await points.balanceOf(brand.address), spBefore - SP("2"), "2 SP escrowed");
  await requestRow(page, first).getByRole("button", { name: "Cancel" }).click();
  await dialog.getByRole("button", { name: "Sign and send" }).click();
  await dialog.getByText("Confirmed").waitFor();
  await dialog.getByRole("button", { name: "Done" }).click();
  assert.equal((await factory.getRedeemRequest(first)).status, CANCELLED);
  assert.equal(await points.balanceOf(brand.address), spBefore, "the escrow came back");
  await requestRow(page, first).getByText("Cancelled").waitFor();

  // 3. Request again and finalize after the redeem delay: SP burned, collateral paid to the wallet.
  await submitForm(page, "redeem", { "Amount (ACME)": "3" });
  await signWithApprovalIfAsked(page, "redeem-request-2");
  const second = first + 1n;
  const asset = (await factory.assets())[0]!;
  const usdc = MockStablecoin__factory.connect(asset, node.provider);
  const usdcBefore = await usdc.balanceOf(brand.address);
  await node.increaseTime(Number(await factory.redeemDelay()) + 1);
  await node.mine();
  await requestRow(page, second).getByRole("button", { name: "Finalize" }).click();
  await dialog.getByRole("button", { name: "Sign and send" }).click();
  await dialog.getByText("Confirmed").waitFor();
  await dialog.getByRole("button", { name: "Done" }).click();
  assert.equal((await factory.getRedeemRequest(second)).status, FINALIZED);
  const [finalized] = await factory.queryFilter(factory.filters.RedeemFinalized(second));
  const paid = await factory.queryFilter(factory.filters.CollateralPaid(second, asset, brand.address));
  assert.ok(finalized && paid.length === 1, "one RedeemFinalized and one CollateralPaid to the wallet");
  assert.equal(finalized.args.spBurned + finalized.args.fee, SP("3"), "the whole request was burned or paid as fee");
  assert.equal(await usdc.balanceOf(brand.address), usdcBefore + paid[0]!.args.amount);
  assert.ok(paid[0]!.args.amount > 0n);
  await requestRow(page, second).getByText("Finalized").waitFor();
  await screenshot(page, "redemption-finalized");
}
