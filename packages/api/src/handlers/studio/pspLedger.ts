import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { campaignTx } from "../../program/target.js";

/** Issue pSP (docs/rules.md#issuance): authority is checked by the simulation as `from`. */
export const pspMint: Handler<typeof routes.pspMint> = ({ body }, ctx) =>
  campaignTx(ctx, body, "mint", (id) => [id, body.to, BigInt(body.amount), body.metadata]);

export const pspSettle: Handler<typeof routes.pspSettle> = ({ body }, ctx) =>
  campaignTx(ctx, body, "settle", (id) => [body.holder, body.receiver, BigInt(body.amount), id, body.metadata]);

export const pspExpire: Handler<typeof routes.pspExpire> = ({ body }, ctx) =>
  campaignTx(ctx, body, "expire", (id) => [body.holder, BigInt(body.amount), id, body.metadata]);

export const pspTransfer: Handler<typeof routes.pspTransfer> = ({ body }, ctx) =>
  campaignTx(ctx, body, "transfer", (id) => [id, body.holder, body.to, BigInt(body.amount)]);
