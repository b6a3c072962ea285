import type { Core } from "./core.js";
import type { Body, Params, ReadOptions, WriteOptions } from "../types.js";

type Input<N extends "buildMint" | "buildRedeem" | "buildFinalizeRedeem" | "buildTransfer"> = Body<N>["input"];
// /api/v1 bodies name the signer `key` (part of the interface); the SDK calls it `from` everywhere.
const keyed = (core: Core, opts: WriteOptions) => ({ key: opts.from, program: opts.program ?? core.program });

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

type RoleInput = Body<"grantRole">["input"];
type HandoverContract = Body<"adminHandoverAccept">["input"]["contract"];

/** Role grants and revocations (signed by the contract's admin) and checks. */
export function rolesNamespace(core: Core) {
  return {
    grant: (input: RoleInput, opts: WriteOptions) =>
      core.write("grantRole", { body: { input, ...keyed(core, opts) } }, opts),
    revoke: (input: RoleInput, opts: WriteOptions) =>
      core.write("revokeRole", { body: { input, ...keyed(core, opts) } }, opts),
    /**
     * The two-step DEFAULT_ADMIN_ROLE transfer of one contract: `begin` (signed by the admin),
     * `accept` (by the new admin once the delay passed), `cancel` (by the admin). For a Safe,
     * batch the four contracts' steps with `client.safe.batch`.
     */
    handover: {
      begin: (contract: HandoverContract, newAdmin: string, opts: WriteOptions) =>
        core.write("adminHandoverBegin", { body: { input: { contract, newAdmin }, ...keyed(core, opts) } }, opts),
      accept: (contract: HandoverContract, opts: WriteOptions) =>
        core.write("adminHandoverAccept", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
      cancel: (contract: HandoverContract, opts: WriteOptions) =>
        core.write("adminHandoverCancel", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
      /**
       * The begin step for all four contracts, for their admin (`from`), with the other roles
       * `from` holds revoked when `revokeOtherRoles`: `batch` (propose `batch.safe.tx`) for a Safe,
       * `transactions` (send in order) for a wallet.
       */
      plan: (input: Body<"adminHandoverPlan">["input"], opts: WriteOptions) =>
        core.request("adminHandoverPlan", { body: { input, ...keyed(core, opts) } }, opts),
    },
    /** Every role `address` holds on the program's contracts, from the chain. */
    held: (address: Params<"rolesHeld">["address"], opts: ReadOptions = {}) =>
      core.request("rolesHeld", { params: { address }, query: { program: opts.program ?? core.program } }, opts),
    check: (
      contract: Params<"checkRole">["contract"],
      role: Params<"checkRole">["role"],
      address: Params<"checkRole">["address"],
      opts: ReadOptions = {},
    ) =>
      core.request(
        "checkRole",
        {
          params: { contract, role, address },
          query: { program: opts.program ?? core.program },
        },
        opts,
      ),
  };
}

/** Pause (a pauser signs) and unpause (the admin signs) a contract by name. */
export function freezeNamespace(core: Core) {
  return {
    pause: (contract: Body<"pause">["input"]["contract"], opts: WriteOptions) =>
      core.write("pause", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
    unpause: (contract: Body<"unpause">["input"]["contract"], opts: WriteOptions) =>
      core.write("unpause", { body: { input: { contract }, ...keyed(core, opts) } }, opts),
  };
}
