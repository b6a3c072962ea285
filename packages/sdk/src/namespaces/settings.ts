import type { Core } from "./core.js";
import { keyed } from "./keyed.js";
import type { Body, WriteOptions } from "../types.js";

/**
 * The Factory's settings, each built for `from`: the redeem delay (a MANAGER_ROLE holder signs),
 * the fees and their receiver (the Factory's admin signs). Inputs outside the Factory's bounds
 * (fees above 1000 bps, a delay above 30 days, the zero address) are 400 INVALID_INPUT.
 */
export function settingsNamespace(core: Core) {
  return {
    /** Factory.setRedeemDelay: seconds, 0 to 30 days. */
    setRedeemDelay: (delay: Body<"setRedeemDelay">["input"]["delay"], opts: WriteOptions) =>
      core.write("setRedeemDelay", { body: { input: { delay }, ...keyed(core, opts) } }, opts),
    /** Factory.setFees: basis points, 0 to 1000 each; with a fee above 0 the receiver must be able to receive SP. */
    setFees: (input: Body<"setFees">["input"], opts: WriteOptions) =>
      core.write("setFees", { body: { input, ...keyed(core, opts) } }, opts),
    /** Factory.setFeeReceiver: any address but the zero address. */
    setFeeReceiver: (feeReceiver: Body<"setFeeReceiver">["input"]["feeReceiver"], opts: WriteOptions) =>
      core.write("setFeeReceiver", { body: { input: { feeReceiver }, ...keyed(core, opts) } }, opts),
  };
}
