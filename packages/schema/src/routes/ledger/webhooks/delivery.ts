import { z } from "zod";
import { LEDGER_CONTRACTS, LEDGER_EVENT_KINDS } from "../../../generated/ledgerEvents.js";
import { LedgerEventView } from "../reads/holderHistory.js";
import { BlockTime } from "../common.js";

export { LEDGER_CONTRACTS };

/** A log the contract's ABI does not declare: its raw topics and data, `event` null. */
const UndeclaredLog = z.object({
  contract: z.enum(LEDGER_CONTRACTS),
  event: z.null(),
  args: z.object({ topics: z.array(z.string()), data: z.string() }),
});

/**
 * What an event is: its name, the contract that emitted it and its arguments, one member per
 * event kind of the ledger contracts' ABIs (generated at build), so `event` tells `args` apart.
 */
export const LedgerEventKind = z.union([...LEDGER_EVENT_KINDS, UndeclaredLog]);

/** The name of every event the ledger keeps. */
export type LedgerEventName = z.output<(typeof LEDGER_EVENT_KINDS)[number]>["event"];

/** Where an event sits: the fields of the ledger routes' events, plus its program and chain. */
const EventPlace = LedgerEventView.pick({
  blockNumber: true,
  logIndex: true,
  txHash: true,
  address: true,
  campaignId: true,
}).extend({
  program: z.string(),
  chainId: z.string(),
  /** The ledger routes' `time`, the same ISO text. */
  blockTime: BlockTime,
});

/** `data` of a `ledger.event` delivery: the event as the ledger routes answer it. */
export const WebhookEventData = z.intersection(EventPlace, LedgerEventKind);

/** `data` of a `ledger.event.removed` delivery: the event a reorg took away, and the delivery that announced it. */
export const WebhookRemovedData = z.intersection(
  EventPlace.extend({
    removedDelivery: z.string().meta({ description: "The webhook-id of the delivery this one takes back" }),
  }),
  LedgerEventKind,
);

/** The JSON body of a webhook delivery (signed per Standard Webhooks). */
export const WebhookMessage = z.union([
  z.object({ type: z.literal("ledger.event"), timestamp: z.string(), data: WebhookEventData }),
  z.object({ type: z.literal("ledger.event.removed"), timestamp: z.string(), data: WebhookRemovedData }),
]);
