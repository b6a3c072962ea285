import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { campaignCall } from "../../../core/program/target.js";

/** Issue pSP (docs/rules.md#issuance): authority is checked by the simulation as `from`. */
export const pspMint: BuildHandler<typeof routes.pspMint> = ({ body }, ctx) =>
  campaignCall(ctx, body, "mint", (id) => [id, body.to, BigInt(body.amount), body.metadata]);

export const pspSettle: BuildHandler<typeof routes.pspSettle> = ({ body }, ctx) =>
  campaignCall(ctx, body, "settle", (id) => [body.holder, body.receiver, BigInt(body.amount), id, body.metadata]);

export const pspExpire: BuildHandler<typeof routes.pspExpire> = ({ body }, ctx) =>
  campaignCall(ctx, body, "expire", (id) => [body.holder, BigInt(body.amount), id, body.metadata]);

export const pspTransfer: BuildHandler<typeof routes.pspTransfer> = ({ body }, ctx) =>
  campaignCall(ctx, body, "transfer", (id) => [id, body.holder, body.to, BigInt(body.amount)]);
