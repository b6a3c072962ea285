import type { Core } from "./core.js";
import { keyed } from "./keyed.js";
import type { Body, WriteOptions } from "../types.js";

/** Pause (a pauser signs) and unpause (the admin signs) a contract by name. */
export function freezeNamespace(core: Core) {
  return {
    pause: (contract: Body<"pause">["input"]["contract"], opts: WriteOptions) =>
      core.write("pause", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
    unpause: (contract: Body<"unpause">["input"]["contract"], opts: WriteOptions) =>
      core.write("unpause", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
  };
}
