import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { target, tx } from "../../program/target.js";
import { campaignId } from "../../program/campaign.js";

/** Issue pSP (docs/rules.md#issuance): authority is checked by the simulation as `from`. */
export const pspMint: Handler<typeof routes.pspMint> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "mint",
    args: [id.value, body.to, BigInt(body.amount), body.metadata],
    from: body.from,
    extra: { campaignId: id },
  });
};

export const pspSettle: Handler<typeof routes.pspSettle> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "settle",
    args: [body.holder, body.receiver, BigInt(body.amount), id.value, body.metadata],
    from: body.from,
    extra: { campaignId: id },
  });
};

export const pspExpire: Handler<typeof routes.pspExpire> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "expire",
    args: [body.holder, BigInt(body.amount), id.value, body.metadata],
    from: body.from,
    extra: { campaignId: id },
  });
};

export const pspTransfer: Handler<typeof routes.pspTransfer> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "transfer",
    args: [id.value, body.holder, body.to, BigInt(body.amount)],
    from: body.from,
    extra: { campaignId: id },
  });
};
