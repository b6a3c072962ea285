import { z } from "zod";
import { Address, ProgramRef, UintText } from "../../primitives.js";

/** Which program; the server's only or default program when left out. */
export const LedgerQuery = z.object({ program: ProgramRef });

/**
 * Cursor pagination of the ledger's lists: `cursor` is the previous page's `nextCursor` (the key
 * of its last item, whose format each list states), `limit` 1 to 500 (default 100).
 */
export const pageQuery = (cursor: z.ZodString) =>
  LedgerQuery.extend({
    cursor: cursor.optional(),
    limit: z
      .string()
      .regex(/^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$/, "must be a whole number from 1 to 500")
      .transform(Number)
      .optional()
      .meta({ description: "Items per page, 1 to 500 (default 100)" }),
  });

/** The cursor of lists by holder address: the previous page's last holder. */
export const HolderCursor = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a nextCursor from a previous answer (a holder address)")
  .meta({ description: "The previous page's nextCursor: the page starts after this holder address" });

/** The cursor of event lists (newest first): the previous page's last event, `block.logIndex`. */
export const EventCursor = z
  .string()
  .regex(/^[0-9]{1,15}\.[0-9]{1,9}$/, "must be a nextCursor from a previous answer (block.logIndex)")
  .meta({ description: "The previous page's nextCursor, `block.logIndex`: the page holds older events only" });

/** What every ledger answer carries: the program and the block the answer is consistent with. */
export const LedgerAt = {
  program: z.string(),
  chainId: z.string(),
  blockNumber: z.number().int().nullable().meta({
    description:
      "The last block of this program in the ledger: the answer is exactly the chain's state there. Null until the indexer reached the program.",
  }),
};

/** A block's time as every ledger answer and webhook delivery gives it. */
export const BlockTime = z.string().meta({ description: "The block's time, ISO 8601" });

export const NextCursor = z
  .string()
  .nullable()
  .meta({ description: "Pass as `cursor` for the next page; null on the last page" });

export const MinterView = z.object({
  minter: Address,
  limit: UintText,
  issued: UintText,
  active: z.boolean(),
});
