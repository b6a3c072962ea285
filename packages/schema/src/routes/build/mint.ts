import { Address, PositiveAmount } from "../../primitives.js";
import { buildBody, buildRoute } from "./common.js";

export const buildMint = buildRoute({
  path: "/api/v1/build/mint",
  summary: "Build Factory.mint: deposit collateral, receive SP (receiver defaults to key)",
  body: buildBody({ asset: Address, amount: PositiveAmount, receiver: Address.optional() }),
});
