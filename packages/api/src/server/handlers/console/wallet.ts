import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { siweChallenge, siweProve } from "../../console/siwe.js";

/** A SIWE nonce for this session and the fields the message must carry. */
export const consoleWalletNonce: Handler<typeof routes.consoleWalletNonce> = async ({ http, headers }, ctx) => {
  if (!http.sessionToken) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
  return siweChallenge(ctx, http.sessionToken, headers.host);
};

/** Binds the wallet of a signed SIWE message to this session (a console deploy must name it). */
export const consoleWalletProve: Handler<typeof routes.consoleWalletProve> = async ({ http, headers, body }, ctx) => {
  if (!http.sessionToken) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
  return { wallet: await siweProve(ctx, http.sessionToken, headers.host, body) };
};
