import { z } from "zod";
import { Address, CampaignId, Metadata, ProgramRef, UintText } from "../../primitives.js";
import { CampaignIdResolution, UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { defineRoute } from "../../route.js";

/** Most rows of one bulk request (docs/rules.md#bulk-requests). */
export const BULK_ROWS_MAX = 10_000;
/** Longest CSV text: 10,000 rows of about 150 characters (the JSON body limit is 2 MB). */
export const BULK_CSV_MAX_CHARS = 1_500_000;
/** Default gas ceiling of one chunk's transaction (its gas limit, margin included). */
export const BULK_GAS_CEILING_DEFAULT = 10_000_000;
export const BULK_GAS_CEILING_MIN = 1_000_000;
export const BULK_GAS_CEILING_MAX = 30_000_000;
/** A bulk id: the client's name for one drop, part of every chunk's on-chain tag. */
export const BULK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One row as JSON. Only the shape is checked here: every row's content (address, amount,
 * duplicates) is checked by the route, which answers all bad rows at once (422 INVALID_ROWS).
 */
const BulkRow = z
  .strictObject({
    address: z.string().max(200, "must be at most 200 characters"),
    amount: z.string().max(200, "must be at most 200 characters"),
    metadata: z.string().max(4096, "must be at most 4096 characters").optional(),
  })
  .meta({ description: "address: EVM address; amount: decimal text in token units (e.g. 1.5); metadata: optional" });

export const BulkRecipients = z
  .union([
    z
      .string()
      .min(1, "must not be empty")
      .max(BULK_CSV_MAX_CHARS, `must be at most ${BULK_CSV_MAX_CHARS} characters`)
      .meta({
        description:
          "CSV text: one row per line, `address,amount[,metadata]`, an optional first line `address,amount[,metadata]` as header; LF or CRLF; a metadata with commas or quotes is double-quoted (RFC 4180). Read until the first bound: more than 10,000 rows is 400 INVALID_INPUT; a line of more than 16 columns or 8,192 characters is 422 INVALID_ROWS (row 0, with its line)",
      }),
    z.array(BulkRow).min(1, "must hold at least 1 row").max(BULK_ROWS_MAX, `must hold at most ${BULK_ROWS_MAX} rows`),
  ])
  .meta({
    description: `The rows, as CSV text or a JSON array, 1-${BULK_ROWS_MAX}. Amounts are in token units with a "." decimal point and at most the token's decimals (18 for SP): "1.5" is 1.5 points; 0, negatives, exponents and thousands separators are refused. An address may appear once (a duplicate row is refused). Addresses are all lowercase, all uppercase or correctly EIP-55 checksummed. Every bad row is answered at once: 422 INVALID_ROWS with details.rows [{row, line?, field, reason}]`,
  });

/** The body every bulk route takes; `extra` adds the operation's own fields. */
export const bulkBody = <T extends z.ZodRawShape>(extra: T) =>
  z.strictObject({
    campaignId: CampaignId,
    recipients: BulkRecipients,
    metadata: Metadata.meta({ description: "Metadata of rows without their own (default empty)" }),
    bulkId: z.string().regex(BULK_ID_PATTERN, "must be 1-64 characters of A-Z, a-z, 0-9, _ and -").optional().meta({
      description:
        "The client's name for this drop, in every chunk's on-chain tag (default: derived from the request); use a new one per drop",
    }),
    dryRun: z
      .boolean()
      .default(false)
      .meta({ description: "Only report totals, headroom, refused recipients and chunks" }),
    gasCeiling: z
      .number()
      .int("must be an integer")
      .min(BULK_GAS_CEILING_MIN, `must be at least ${BULK_GAS_CEILING_MIN}`)
      .max(BULK_GAS_CEILING_MAX, `must be at most ${BULK_GAS_CEILING_MAX}`)
      .default(BULK_GAS_CEILING_DEFAULT)
      .meta({ description: "Highest gas limit of one chunk's transaction" }),
    ...extra,
    from: Address.meta({ description: "Signer of the transactions (an account or a Safe)" }),
    program: ProgramRef,
  });

const BulkChunk = z.object({
  index: z.number().int().meta({ description: "0-based; chunks must land in this order" }),
  firstRow: z.number().int().meta({ description: "1-based row number of the chunk's first row" }),
  rowCount: z.number().int(),
  totalAmount: UintText,
  metadata: z.string().meta({ description: "The on-chain metadata of every event of the chunk: ends with its tag" }),
  tag: z.string().meta({
    description:
      "bulk:<bulkId>:<n>/<last>, unique to this chunk: n = index + 1 (after done.highestIndex when part of the drop was already issued), last = the highest n of this plan",
  }),
  simulatedGas: UintText.meta({ description: "Gas limit of the chunk's transaction (estimate + 20%)" }),
  tx: UnsignedTx.optional().meta({ description: "The unsigned transaction (absent in a dry run)" }),
});

const Refused = z.object({
  row: z.number().int(),
  address: Address,
  reason: z.enum(["insufficientBalance"]),
  balance: UintText.optional(),
  amount: UintText,
});

export const BulkPlan = z
  .object({
    operation: z.enum(["mint", "settle", "expire"]),
    bulkId: z.string(),
    dryRun: z.boolean(),
    from: Address,
    campaignId: CampaignIdResolution,
    program: z.object({ id: z.string(), chainId: z.string(), factory: Address }),
    decimals: z.number().int(),
    rowCount: z.number().int(),
    totalAmount: UintText,
    fromBlock: z.number().int().meta({ description: "Block at build time: chunks land after it" }),
    gasCeiling: z.number().int(),
    gasPerRow: UintText.meta({ description: "Measured marginal gas of one row" }),
    budget: z
      .object({ available: UintText, shortfall: UintText })
      .optional()
      .meta({ description: "mint: the campaign's available budget and how much the total exceeds it" }),
    minter: z
      .object({ limit: UintText, issued: UintText, active: z.boolean(), headroom: UintText })
      .optional()
      .meta({ description: "mint: the signer's delegated-minter configuration (headroom = limit - issued)" }),
    blocked: z
      .object({ contract: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) })
      .optional()
      .meta({ description: "dry run: the error the drop as a whole would revert with (e.g. InsufficientBudget)" }),
    notAllowed: z.array(Refused).meta({ description: "Rows the chain would refuse" }),
    done: z
      .object({
        rowCount: z.number().int().meta({ description: "Rows already issued under this bulk id: not in any chunk" }),
        totalAmount: UintText,
        highestIndex: z.number().int().meta({ description: "Highest chunk number among their tags (0: none)" }),
        chunks: z.array(
          z.object({
            tag: z.string(),
            hash: z.string(),
            status: z.enum(["mined", "pending"]),
            rowCount: z.number().int(),
          }),
        ),
      })
      .meta({
        description:
          "What this bulk id had already issued, on chain or in the node's mempool: the chunks hold only the other rows (docs/bulk-idempotency.md)",
      }),
    chunkCount: z.number().int(),
    chunks: z.array(BulkChunk),
  })
  .meta({ id: "BulkPlan" });
export type BulkPlan = z.infer<typeof BulkPlan>;

export const bulkRoute = <B extends z.ZodType>(op: string, summary: string, body: B) =>
  defineRoute({
    method: "post",
    path: `/studio/sdk/v1/bulk/psp/${op}`,
    summary,
    tag: "bulk",
    auth: "key",
    body,
    response: success(BulkPlan),
    errors: ["INVALID_ROWS", "MISSING_ROLE", "WOULD_REVERT", "PAYLOAD_TOO_LARGE", "NOT_FOUND", "CONFLICT"],
  });
