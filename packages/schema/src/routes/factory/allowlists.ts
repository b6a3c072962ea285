import { z } from "zod";
import { Address, ProgramRef } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { studioBody, UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";

const tx = success(UnsignedTx);
const accountBody = studioBody({ account: Address });
const base = "/studio/sdk/v1/tx/whitelist";

/** One allowlist's add or remove route; the Points transfer allowlist's are in points/allowlists.ts. */
export const whitelistRoute = (list: "mint" | "transfer" | "redeem", op: "add" | "remove", summary: string) =>
  defineRoute({
    method: "post",
    path: `${base}/${list}/${op}`,
    summary,
    tag: "allowlists",
    auth: "key",
    body: accountBody,
    response: tx,
  });

export const whitelistMintAdd = whitelistRoute(
  "mint",
  "add",
  "factory.addToMintWhitelist(account); MANAGER_ROLE on Factory",
);
export const whitelistMintRemove = whitelistRoute(
  "mint",
  "remove",
  "factory.removeFromMintWhitelist(account); MANAGER_ROLE on Factory",
);
export const whitelistRedeemAdd = whitelistRoute(
  "redeem",
  "add",
  "factory.addToRedeemWhitelist(account); MANAGER_ROLE on Factory",
);
export const whitelistRedeemRemove = whitelistRoute(
  "redeem",
  "remove",
  "factory.removeFromRedeemWhitelist(account); MANAGER_ROLE on Factory",
);

export const whitelistStatus = defineRoute({
  method: "get",
  path: "/studio/sdk/v1/factory/whitelist/:address",
  summary: "Mint and redeem allowlist status (and Points transfer allowlist) of an address",
  tag: "allowlists",
  auth: "key",
  params: z.object({ address: Address }),
  query: z.object({ program: ProgramRef }),
  response: success(z.object({ address: Address, mint: z.boolean(), redeem: z.boolean(), transfer: z.boolean() })),
});
