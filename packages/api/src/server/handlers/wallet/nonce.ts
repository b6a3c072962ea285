import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { siweChallenge } from "../../console/siwe.js";

/** A SIWE nonce for this session and the fields the message must carry. */
export const consoleWalletNonce: Handler<typeof routes.consoleWalletNonce> = async ({ http, headers }, ctx) => {
  if (!http.sessionToken) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
  return siweChallenge(ctx, http.sessionToken, headers.host);
};
