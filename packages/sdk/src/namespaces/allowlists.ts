import type { Core } from "./core.js";
import type { Body, Params, ReadOptions, WriteOptions } from "../types.js";

type Account = Body<"whitelistMintAdd">["account"];

/** The Factory's mint and redeem allowlists (MANAGER_ROLE on the Factory signs). */
export function factoryNamespace(core: Core) {
  const list =
    (name: "whitelistMintAdd" | "whitelistMintRemove" | "whitelistRedeemAdd" | "whitelistRedeemRemove") =>
    (account: Account, opts: WriteOptions) =>
      core.write(name, { body: { account, from: opts.from, program: opts.program ?? core.program } }, opts);
  return {
    addToMintWhitelist: list("whitelistMintAdd"),
    removeFromMintWhitelist: list("whitelistMintRemove"),
    addToRedeemWhitelist: list("whitelistRedeemAdd"),
    removeFromRedeemWhitelist: list("whitelistRedeemRemove"),
    /** Mint, redeem (and Points transfer) allowlist status of an address. */
    whitelistStatus: (address: Params<"whitelistStatus">["address"], opts: ReadOptions = {}) =>
      core.request("whitelistStatus", { params: { address }, query: { program: opts.program ?? core.program } }, opts),
  };
}

/** The Points transfer allowlist (DEFAULT_ADMIN_ROLE on Points signs). */
export function pointsNamespace(core: Core) {
  const list = (name: "whitelistTransferAdd" | "whitelistTransferRemove") => (account: Account, opts: WriteOptions) =>
    core.write(name, { body: { account, from: opts.from, program: opts.program ?? core.program } }, opts);
  return {
    addToTransferWhitelist: list("whitelistTransferAdd"),
    removeFromTransferWhitelist: list("whitelistTransferRemove"),
    /** Whether `account` is on the Points transfer allowlist. */
    isTransferWhitelisted: async (account: Account, opts: ReadOptions = {}): Promise<boolean> =>
      (
        await core.request(
          "whitelistStatus",
          {
            params: { address: account },
            query: { program: opts.program ?? core.program },
          },
          opts,
        )
      ).transfer,
  };
}
