import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { campaignTx } from "../../../core/program/target.js";

/** Issue pSP (docs/rules.md#issuance): authority is checked by the simulation as `from`. */
export const pspMint: Handler<typeof routes.pspMint> = ({ body }, ctx) =>
  campaignTx(ctx, body, "mint", (id) => [id, body.to, BigInt(body.amount), body.metadata]);

export const pspSettle: Handler<typeof routes.pspSettle> = ({ body }, ctx) =>
  campaignTx(ctx, body, "settle", (id) => [body.holder, body.receiver, BigInt(body.amount), id, body.metadata]);

export const pspExpire: Handler<typeof routes.pspExpire> = ({ body }, ctx) =>
  campaignTx(ctx, body, "expire", (id) => [body.holder, BigInt(body.amount), id, body.metadata]);

export const pspTransfer: Handler<typeof routes.pspTransfer> = ({ body }, ctx) =>
  campaignTx(ctx, body, "transfer", (id) => [id, body.holder, body.to, BigInt(body.amount)]);

// Batch forms (docs/rules.md#batch-forms): one transaction, one event per row; the rows keep
// the order of the request.
export const pspMintBatch: Handler<typeof routes.pspMintBatch> = ({ body }, ctx) =>
  campaignTx(ctx, body, "mintBatch", (id) => [
    id,
    body.rows.map((r) => r.to),
    body.rows.map((r) => BigInt(r.amount)),
    body.metadata,
  ]);

export const pspSettleBatch: Handler<typeof routes.pspSettleBatch> = ({ body }, ctx) =>
  campaignTx(ctx, body, "settleBatch", (id) => [
    body.rows.map((r) => r.holder),
    body.rows.map((r) => r.receiver),
    body.rows.map((r) => BigInt(r.amount)),
    id,
    body.metadata,
  ]);

export const pspExpireBatch: Handler<typeof routes.pspExpireBatch> = ({ body }, ctx) =>
  campaignTx(ctx, body, "expireBatch", (id) => [
    body.rows.map((r) => r.holder),
    body.rows.map((r) => BigInt(r.amount)),
    id,
    body.metadata,
  ]);
