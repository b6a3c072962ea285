import { ContractNameSchema } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { buildEnvelope } from "../build/common.js";
import { z } from "zod";

const tx = success(UnsignedTx);
const freezeRoute = routeFamily({
  method: "post",
  tag: "freeze",
  auth: "key",
  body: buildEnvelope(z.strictObject({ contract: ContractNameSchema })),
  response: tx,
});

export const pause = freezeRoute({
  path: "/api/v1/freeze/pause",
  summary: "Build pause() for a pauser (key)",
});

export const unpause = freezeRoute({
  path: "/api/v1/freeze/unpause",
  summary: "Build unpause() for the contract's admin (key)",
});
