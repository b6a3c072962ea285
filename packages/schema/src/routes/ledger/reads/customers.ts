import { z } from "zod";
import { Address, UintText } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { HolderCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";

export const LedgerCustomerView = z
  .object({
    holder: Address,
    sp: UintText.meta({ description: "SP balance now" }),
    psp: UintText.meta({ description: "pSP balance now, every campaign summed" }),
    issued: UintText.meta({ description: "pSP ever issued to the holder (PSPMinted), every campaign" }),
    settled: UintText.meta({ description: "pSP the holder ever settled into SP (PSPSettled)" }),
    clawedBack: UintText.meta({ description: "pSP ever expired from the holder (PSPExpired)" }),
  })
  .meta({ id: "LedgerCustomer" });

/**
 * A customer is an address that holds SP or pSP now or was ever issued pSP; the program's own
 * contracts are left out. Amounts are in the token's smallest units.
 */
export const ledgerCustomers = defineRoute({
  method: "get",
  path: "/api/v1/ledger/customers",
  summary:
    "Customers (holders of SP or pSP, or ever issued pSP; not the program's contracts) with balances and pSP totals, by address, from the ledger",
  tag: "ledger",
  auth: "key",
  query: pageQuery(HolderCursor).extend({
    prefix: z
      .string()
      .regex(/^0x[0-9a-fA-F]{0,40}$/, "must be 0x and up to 40 hex digits")
      .optional()
      .meta({ description: "Only holders whose address starts with this (case-insensitive)" }),
    minBalance: z
      .string()
      .regex(/^(?:0|[1-9][0-9]{0,77})$/, "must be a whole number of smallest units")
      .optional()
      .meta({ description: "Only holders whose SP balance is at least this, in smallest units" }),
  }),
  response: success(
    z.object({
      ...LedgerAt,
      customers: z.array(LedgerCustomerView),
      nextCursor: NextCursor,
    }),
  ),
});
