import { getAddress } from "ethers";
import { HANDOVER_CONTRACTS, type RouteDef, type routes, type SafeBatch, type UnsignedTx } from "@points/schema";
import type { BuildHandler, Handler } from "../../../core/context.js";
import type { Handlers } from "../../http/app.js";
import { chainUnavailable } from "../../../core/chain/client.js";
import { build, target } from "../../../core/program/target.js";
import { heldRoles, isSafe } from "../../../core/program/heldRoles.js";
import { requireReadable } from "../../../core/ledger/tenant.js";

// The begin step of a handover with the old admin's other roles revoked in the same proposal
// (docs/deployment.md#admin-handover). Revoking needs DEFAULT_ADMIN_ROLE, which the old admin
// keeps until the new one accepts: begins first, then revocations, all signed by the old admin.

type Step = { route: "adminHandoverBegin" | "revokeRole"; contract: (typeof HANDOVER_CONTRACTS)[number]; role: string };

/** The plan route's handler over every route's handler (`all`): each call is built by its own route. */
export const adminHandoverPlanOver =
  (all: () => Handlers): Handler<typeof routes.adminHandoverPlan> =>
  async (input, ctx) => {
    const { body, caller } = input;
    const t = await target(ctx, body.program);
    await requireReadable(ctx, t.program, caller, body.program);
    const admin = getAddress(body.key);
    const [held, safe] = await Promise.all([heldRoles(t, admin), isSafe(t, admin)]);
    const onHandover = (c: string): c is Step["contract"] => (HANDOVER_CONTRACTS as readonly string[]).includes(c);
    const steps: Step[] = [
      ...HANDOVER_CONTRACTS.map((contract) => ({
        route: "adminHandoverBegin" as const,
        contract,
        role: "DEFAULT_ADMIN_ROLE",
      })),
      ...(body.input.revokeOtherRoles
        ? held.flatMap((h) =>
            onHandover(h.contract) && h.role !== "DEFAULT_ADMIN_ROLE"
              ? [{ route: "revokeRole" as const, contract: h.contract, role: h.role }]
              : [],
          )
        : []),
    ];
    const program = t.program.id;
    const actionOf = (s: Step) =>
      s.route === "adminHandoverBegin"
        ? { route: s.route, body: { program, input: { contract: s.contract, newAdmin: body.input.newAdmin } } }
        : { route: s.route, body: { program, input: { contract: s.contract, role: s.role, account: admin } } };
    const answer = {
      program,
      chainId: t.program.chainId,
      admin,
      newAdmin: getAddress(body.input.newAdmin),
      held,
      actions: steps,
    };
    const handlers = all();
    if (safe) {
      const batchBody = {
        safe: admin,
        actions: steps.map(actionOf),
        ...(body.input.multiSendCallOnly && { multiSendCallOnly: body.input.multiSendCallOnly }),
        ...(body.nonce !== undefined && { nonce: body.nonce }),
      };
      const batch = (await handlers.safeBatch({ ...input, body: batchBody } as never, ctx)) as SafeBatch;
      return { ...answer, batch };
    }
    // A wallet sends them one after the other: consecutive nonces from its next one (or `nonce`).
    let base: number;
    try {
      base = body.nonce ?? (await t.chain.provider.getTransactionCount(admin, "pending"));
    } catch (e) {
      chainUnavailable(e, t.chain.config);
    }
    const transactions: UnsignedTx[] = [];
    for (const [i, s] of steps.entries()) {
      const a = actionOf(s);
      const plan = handlers[a.route] as BuildHandler<RouteDef>;
      const call = await plan({ ...input, body: { ...a.body, key: admin } } as never, ctx);
      transactions.push(await build(ctx, call, { nonce: base + i }));
    }
    return { ...answer, transactions };
  };
