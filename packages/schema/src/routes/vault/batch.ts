import { z } from "zod";
import { Address, CampaignId, Metadata, PositiveAmount } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { studioBody, UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";

/**
 * Most rows of one batch transaction built by these routes: 500 first-time mints use about
 * 13.2M gas (26.3k a row, packages/contracts/bench/results/gas.md), under a 30M block with room.
 * A larger drop takes several of these transactions.
 */
export const BATCH_ROWS_MAX = 500;

const rows = <R extends z.ZodRawShape>(row: R) =>
  z
    .array(z.object(row).strict())
    .min(1, "must hold at least 1 row")
    .max(BATCH_ROWS_MAX, `must hold at most ${BATCH_ROWS_MAX} rows`);
const post = <B extends z.ZodType>(path: string, summary: string, body: B) =>
  defineRoute({
    method: "post",
    path: `/studio/sdk/v1/tx/psp/${path}`,
    summary,
    tag: "psp",
    auth: "key",
    body,
    response: success(UnsignedTx),
  });

export const pspMintBatch = post(
  "mint-batch",
  "mintBatch(campaignId, to[], amounts[], metadata): issue pSP to every row in one transaction; the authority, minter limit and budget bind the rows' total (docs/rules.md#batch-forms)",
  studioBody({ campaignId: CampaignId, rows: rows({ to: Address, amount: PositiveAmount }), metadata: Metadata }),
);
export const pspSettleBatch = post(
  "settle-batch",
  "settleBatch(holders[], receivers[], amounts[], campaignId, metadata): settle every row in one transaction; every receiver on the settlement allowlist",
  studioBody({
    campaignId: CampaignId,
    rows: rows({ holder: Address, receiver: Address, amount: PositiveAmount }),
    metadata: Metadata,
  }),
);
export const pspExpireBatch = post(
  "expire-batch",
  "expireBatch(holders[], amounts[], campaignId, metadata): claw every row back into the budget in one transaction",
  studioBody({ campaignId: CampaignId, rows: rows({ holder: Address, amount: PositiveAmount }), metadata: Metadata }),
);
