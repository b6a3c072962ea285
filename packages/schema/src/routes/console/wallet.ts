import { z } from "zod";
import { Address, SafeText } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";

/**
 * Sign-In with Ethereum (EIP-4361) for the console: the wallet a console deploy names must be
 * proven by a message it signed, with a nonce this server issued to this session.
 */

export const SiweChallenge = z.object({
  nonce: z.string().meta({ description: "Single use, for this session only" }),
  domain: z.string().meta({ description: "The message's domain must be exactly this (the console's host)" }),
  uri: z.string().meta({ description: "The message's URI must be on this origin" }),
  version: z.literal("1"),
  chainIds: z.array(z.number().int()).meta({ description: "The message's chain id must be one of these" }),
  statement: z.string(),
  issuedAt: z.string(),
  expirationTime: z.string().meta({ description: "The message must expire at or before this time" }),
});

export const consoleWalletNonce = defineRoute({
  method: "post",
  path: "/console/v1/wallet/nonce",
  summary: "Start proving a wallet (SIWE): a nonce for this session and the fields the message must carry",
  tag: "console",
  auth: "session",
  response: success(SiweChallenge),
});

export const consoleWalletProve = defineRoute({
  method: "post",
  path: "/console/v1/wallet/prove",
  summary:
    "Prove a wallet with a signed SIWE message: nonce issued to this session and unused, domain, URI, chain id and expiry checked; 403 FORBIDDEN (reason siwe) otherwise",
  tag: "console",
  auth: "session",
  body: z.strictObject({
    message: SafeText(4000, 1).meta({ description: "The EIP-4361 message, as signed" }),
    signature: z
      .string()
      .length(132, "must be a 65-byte hex signature")
      .regex(/^0x[0-9a-fA-F]{128}(0[01]|1[bBcC])$/, "must be a 65-byte hex signature with v 0, 1, 27 or 28")
      .meta({ description: "personal_sign of the message by its address" }),
  }),
  errors: ["FORBIDDEN"],
  response: success(z.object({ wallet: Address })),
});
