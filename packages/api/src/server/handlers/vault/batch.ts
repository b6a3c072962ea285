import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { campaignCall } from "../../../core/program/target.js";

// Batch forms (docs/rules.md#batch-forms): one transaction, one event per row; the rows keep
// the order of the request.
export const pspMintBatch: BuildHandler<typeof routes.pspMintBatch> = ({ body }, ctx) =>
  campaignCall(ctx, body, "mintBatch", (id) => [
    id,
    body.rows.map((r) => r.to),
    body.rows.map((r) => BigInt(r.amount)),
    body.metadata,
  ]);

export const pspSettleBatch: BuildHandler<typeof routes.pspSettleBatch> = ({ body }, ctx) =>
  campaignCall(ctx, body, "settleBatch", (id) => [
    body.rows.map((r) => r.holder),
    body.rows.map((r) => r.receiver),
    body.rows.map((r) => BigInt(r.amount)),
    id,
    body.metadata,
  ]);

export const pspExpireBatch: BuildHandler<typeof routes.pspExpireBatch> = ({ body }, ctx) =>
  campaignCall(ctx, body, "expireBatch", (id) => [
    body.rows.map((r) => r.holder),
    body.rows.map((r) => BigInt(r.amount)),
    id,
    body.metadata,
  ]);
