import type { Core } from "./core.js";
import type { Params, ReadOptions } from "../types.js";

/** Chain and registry reads. */
export function readNamespace(core: Core) {
  const query = (opts: ReadOptions) => ({ program: opts.program ?? core.program });
  return {
    balance: (address: Params<"readBalance">["address"], opts: ReadOptions = {}) =>
      core.request("readBalance", { params: { address }, query: query(opts) }, opts),
    factoryState: (opts: ReadOptions = {}) => core.request("readFactoryState", { query: query(opts) }, opts),
    assets: (opts: ReadOptions = {}) => core.request("readFactoryAssets", { query: query(opts) }, opts),
    vault: (asset: Params<"readFactoryVault">["asset"], opts: ReadOptions = {}) =>
      core.request("readFactoryVault", { params: { asset }, query: query(opts) }, opts),
    redeemRequest: (requestId: Params<"readRedeemRequest">["requestId"], opts: ReadOptions = {}) =>
      core.request("readRedeemRequest", { params: { requestId }, query: query(opts) }, opts),
    factories: () => core.request("listFactories"),
    factory: (id: Params<"getFactory">["id"]) => core.request("getFactory", { params: { id } }),
    /** The program's source verification on its chain's explorers. */
    verification: (id: Params<"getFactoryVerification">["id"]) =>
      core.request("getFactoryVerification", { params: { id } }),
    chainContracts: (chainId: Params<"listChainContracts">["chainId"]) =>
      core.request("listChainContracts", { params: { chainId } }),
  };
}
