import { z } from "zod";
import { Address, SafeText } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { LEDGER_CONTRACTS } from "../../../generated/ledgerEvents.js";
import { BlockTime, EventCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";

export const LedgerEventView = z
  .object({
    blockNumber: z.number().int(),
    logIndex: z.number().int(),
    txHash: z.string(),
    time: BlockTime,
    contract: z.enum(LEDGER_CONTRACTS),
    address: Address,
    event: z.string().nullable().meta({ description: "The event's name; null for a log the ABI does not declare" }),
    campaignId: z.string().nullable(),
    args: z.record(z.string(), z.unknown()).meta({
      description: "The event's arguments by name: integers as decimal strings, addresses checksummed",
    }),
  })
  .meta({ id: "LedgerEvent" });

export const ledgerHolderHistory = defineRoute({
  method: "get",
  path: "/api/v1/ledger/holders/:address/history",
  summary:
    "Every event of a program touching an address (mints, settlements, expiries, transfers, redemptions, roles), newest first",
  tag: "ledger",
  auth: "key",
  params: z.object({ address: Address }),
  query: pageQuery(EventCursor).extend({
    metadata: SafeText(4096, 1).optional().meta({
      description:
        "Only the events whose `metadata` argument is exactly this text (pSP mints, settlements and expiries carry one), e.g. an order's `order:<hash>`: a lookup by order reference without reading the whole history",
    }),
  }),
  response: success(
    z.object({ ...LedgerAt, address: Address, events: z.array(LedgerEventView), nextCursor: NextCursor }),
  ),
});
