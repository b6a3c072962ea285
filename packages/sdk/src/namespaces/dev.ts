import type { Core } from "./core.js";
import type { Body, WriteOptions } from "../types.js";

/** Development chains only (a dev chain id on loopback RPCs; 403 DEV_CHAIN_ONLY elsewhere). */
export function devNamespace(core: Core) {
  return {
    /**
     * The mock collateral's open mint of `amount` to `to` (default: `from`), built for `from` to
     * send: collateral for a local program without raw contract calls.
     */
    faucet: (input: Body<"devFaucet">["input"], opts: WriteOptions) =>
      core.write("devFaucet", { body: { input, key: opts.from, program: opts.program ?? core.program } }, opts),
  };
}
