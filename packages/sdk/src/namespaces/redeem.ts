import type { Core } from "./core.js";
import type { Body, Params, WriteOptions } from "../types.js";

/** Which chain, Factory and asset a chain-scoped redemption route acts on. */
export type RedeemScope = Params<"chainRedeemCreate">;
type ChainOptions = Omit<WriteOptions, "program">;

/** Chain-scoped redemption: the program is named by chain and Factory address. */
export function redeemNamespace(core: Core) {
  return {
    create: (scope: RedeemScope, input: Body<"chainRedeemCreate">["input"], opts: ChainOptions) =>
      core.write("chainRedeemCreate", { params: scope, body: { input, key: opts.from } }, opts),
    cancel: (scope: RedeemScope, requestId: Body<"chainRedeemCancel">["input"]["requestId"], opts: ChainOptions) =>
      core.write("chainRedeemCancel", { params: scope, body: { input: { requestId }, key: opts.from } }, opts),
    finalize: (scope: RedeemScope, requestId: Body<"chainRedeemFinalize">["input"]["requestId"], opts: ChainOptions) =>
      core.write("chainRedeemFinalize", { params: scope, body: { input: { requestId }, key: opts.from } }, opts),
    /** A redemption request's record and status (the asset of the scope is not needed). */
    status: (
      scope: Omit<Params<"chainRedeemStatus">, "requestId">,
      requestId: Params<"chainRedeemStatus">["requestId"],
    ) =>
      core.request("chainRedeemStatus", {
        params: { chainId: scope.chainId, factoryAddr: scope.factoryAddr, requestId },
      }),
  };
}
