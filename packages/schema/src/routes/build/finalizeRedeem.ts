import { Uint } from "../../primitives.js";
import { buildBody, buildRoute } from "./common.js";

export const buildFinalizeRedeem = buildRoute({
  path: "/api/v1/build/finalize-redeem",
  summary: "Build Factory.finalizeRedeem",
  body: buildBody({ requestId: Uint }),
});
