import { z } from "zod";
import { Address, ProgramRef } from "../primitives.js";
import { defineRoute } from "../route.js";
import { TxNonce, UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";

/** Flat body of /studio/sdk/v1 routes: the SDK call's arguments plus the signer `from`. */
export const studioBody = <T extends z.ZodRawShape>(fields: T) =>
  z.strictObject({
    ...fields,
    from: Address.meta({ description: "Signer of the transaction" }),
    program: ProgramRef,
    nonce: TxNonce,
  });

const tx = success(UnsignedTx);
const accountBody = studioBody({ account: Address });
const base = "/studio/sdk/v1/tx/whitelist";

const whitelistRoute = (list: "mint" | "transfer" | "redeem", op: "add" | "remove", summary: string) =>
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
export const whitelistTransferAdd = whitelistRoute(
  "transfer",
  "add",
  "points.addToTransferWhitelist(account); DEFAULT_ADMIN_ROLE on Points",
);
export const whitelistTransferRemove = whitelistRoute(
  "transfer",
  "remove",
  "points.removeFromTransferWhitelist(account); DEFAULT_ADMIN_ROLE on Points",
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
