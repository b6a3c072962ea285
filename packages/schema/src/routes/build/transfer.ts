import { Address, PositiveAmount } from "../../primitives.js";
import { buildBody, buildRoute } from "./common.js";

export const buildTransfer = buildRoute({
  path: "/api/v1/build/transfer",
  summary: "Build Points.transfer (SP) from key to `to`",
  body: buildBody({ to: Address, amount: PositiveAmount }),
});
