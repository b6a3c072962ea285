import type { Core } from "./core.js";
import { keyed } from "./keyed.js";
import type { Body, Params, ReadOptions, WriteOptions } from "../types.js";

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
