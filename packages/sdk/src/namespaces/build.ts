import type { Core } from "./core.js";
import { keyed } from "./keyed.js";
import type { Body, WriteOptions } from "../types.js";

type Input<N extends "buildMint" | "buildRedeem" | "buildFinalizeRedeem" | "buildTransfer"> = Body<N>["input"];

/** SP mint, redeem request, finalize and transfer, built for `from`. */
export function buildNamespace(core: Core) {
  return {
    mint: (input: Input<"buildMint">, opts: WriteOptions) =>
      core.write("buildMint", { body: { input, ...keyed(core, opts) } }, opts),
    redeem: (input: Input<"buildRedeem">, opts: WriteOptions) =>
      core.write("buildRedeem", { body: { input, ...keyed(core, opts) } }, opts),
    finalizeRedeem: (requestId: Input<"buildFinalizeRedeem">["requestId"], opts: WriteOptions) =>
      core.write("buildFinalizeRedeem", { body: { input: { requestId }, ...keyed(core, opts) } }, opts),
    transfer: (input: Input<"buildTransfer">, opts: WriteOptions) =>
      core.write("buildTransfer", { body: { input, ...keyed(core, opts) } }, opts),
  };
}
