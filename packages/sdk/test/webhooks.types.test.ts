import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { LedgerEventName, LedgerEventOf, ResponseData, WebhookEvent } from "../src/index.js";

// Type-level checks, compiled by the package's lint (tsc over test/): a wrong type fails the lint.
// Each way assignable, and never `any` (the SDK's mapped types defeat the stricter identity check).
type IsAny<T> = 0 extends 1 & T ? true : false;
type Equal<A, B> =
  IsAny<A> extends true
    ? false
    : IsAny<B> extends true
      ? false
      : [A] extends [B]
        ? [B] extends [A]
          ? true
          : false
        : false;
const expectType = <T extends true>(_: T) => undefined;
type Hex = `0x${string}`;

/** Never called: what matters is that it compiles. */
export function narrowing(e: WebhookEvent) {
  // Block time as the ledger routes give it: ISO text, never seconds.
  expectType<Equal<typeof e.data.blockTime, string>>(true);
  expectType<Equal<typeof e.data.address, Hex>>(true);
  if (e.data.event === "PSPMinted") {
    expectType<Equal<typeof e.data.args, { campaignId: Hex; minter: Hex; to: Hex; amount: string; metadata: string }>>(
      true,
    );
    expectType<Equal<typeof e.data.contract, "pspVault">>(true);
  }
  if (e.data.event === "RedeemRequested") {
    expectType<Equal<typeof e.data.args.expectedBasketMode, boolean>>(true);
    expectType<Equal<typeof e.data.args.requestId, string>>(true);
  }
  if (e.data.event === "ProgramDeployed") expectType<Equal<typeof e.data.args.program.pspVault, Hex>>(true);
  // Two contracts declare TransferWhitelistUpdated differently: the contract tells them apart.
  if (e.data.event === "TransferWhitelistUpdated") {
    // @ts-expect-error the points token's has no campaign
    void e.data.args.campaignId;
    if (e.data.contract === "pspVault") expectType<Equal<typeof e.data.args.campaignId, Hex>>(true);
    else expectType<Equal<typeof e.data.args, { account: Hex; whitelisted: boolean }>>(true);
  }
  // A log the ABI does not declare: its raw topics and data.
  if (e.data.event === null) expectType<Equal<typeof e.data.args, { topics: string[]; data: string }>>(true);
  // @ts-expect-error not an event of the ledger contracts
  if (e.data.event === "Minted2") return;
  if (e.type === "ledger.event.removed") expectType<Equal<typeof e.data.removedDelivery, string>>(true);
  // @ts-expect-error a `ledger.event` has no removedDelivery
  if (e.type === "ledger.event") void e.data.removedDelivery;
  expectType<Equal<LedgerEventOf<"CampaignFunded">["args"]["fromUnallocated"], string>>(true);
  expectType<"PSPSettled" extends LedgerEventName ? true : false>(true);
}

/** The create answer says whether it made the subscription; the secret is there only then. */
export function createdOrExisting(hook: ResponseData<"ledgerWebhookCreate">) {
  if (hook.created) expectType<Equal<typeof hook.secret, string>>(true);
  else expectType<Equal<typeof hook.secret, null>>(true);
}

describe("webhook types", () => {
  it("areCheckedByTheLint_thisFileCompiles", () => {
    assert.equal(typeof narrowing, "function");
  });
});
