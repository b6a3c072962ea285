import { z } from "zod";
import { Address, PositiveAmount } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { buildBody } from "../build/common.js";

/**
 * Mock collateral for a development chain: the open `mint(to, amount)` of the program's mock
 * stablecoin, built for `key` to sign like any build route (the service never signs). Answered
 * only for a dev chain id served on loopback RPCs outside production: 403 DEV_CHAIN_ONLY otherwise.
 */
export const devFaucet = defineRoute({
  method: "post",
  path: "/api/v1/dev/faucet",
  summary:
    "Dev chains only: build the mock collateral's mint(to, amount) for key (403 DEV_CHAIN_ONLY unless a dev chain id on loopback RPCs outside production; 404 unless asset is one of the program's collateral assets)",
  tag: "build",
  auth: "open",
  body: buildBody({
    asset: Address.meta({ description: "One of the program's collateral assets (a mock stablecoin on a dev chain)" }),
    amount: PositiveAmount,
    to: Address.optional().meta({ description: "Who receives the collateral (default: key)" }),
  }),
  response: success(UnsignedTx),
  errors: ["DEV_CHAIN_ONLY"],
});
