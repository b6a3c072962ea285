import { getAddress } from "ethers";
import { routes, signerFieldOf, type RouteDef, type SafeBatch } from "@points/schema";
import type { BuildHandler, Ctx, Handler, Input } from "../../../core/context.js";
import type { Handlers } from "../../http/app.js";
import { ApiError } from "../../../core/errors.js";
import { encodeCall, type EncodedCall } from "../../../core/chain/build.js";
import { safeTxAnswer } from "../../../core/chain/safe.js";
import { safeTxFields } from "@points/contracts/program/safe";
import { chainUnavailable } from "../../../core/chain/client.js";
import { revertToApiError } from "../../../core/chain/revert.js";
import { CANONICAL_MULTISEND_CALL_ONLY, encodeMultiSend } from "@points/contracts/program/multiSend";
import { firstFailingCall, requireMultiSendCallOnly } from "../../../core/chain/multiSend.js";
import { safeAt } from "../../../core/safe/view.js";

// A Safe batch (docs/architecture.md#safe-multisig): each action runs its own build route's
// handler, with the Safe as signer, to get its call; the calls then run, in order, as one
// delegatecall of the Safe to MultiSendCallOnly, simulated from the Safe before answering.

type BatchInput = Input<typeof routes.safeBatch>;
type Action = BatchInput["body"]["actions"][number];

/** The same error, naming the action it is about (`details.action`, `details.route`). */
function atAction(e: unknown, index: number, route: string): unknown {
  if (!(e instanceof ApiError)) return e;
  const details = typeof e.details === "object" && e.details !== null ? e.details : { cause: e.details };
  return new ApiError(e.code, `action ${index} (${route}): ${e.message}`, { action: index, route, ...details });
}

/** The call action `index` stands for, built by its route's handler with `safe` as signer. */
async function collect(
  all: Handlers,
  ctx: Ctx,
  input: BatchInput,
  index: number,
  action: Action,
): Promise<EncodedCall> {
  // The schema checked the body against the route's own (without signer and nonce).
  const body = { ...action.body, [signerFieldOf(routes[action.route])]: input.body.safe };
  const plan = all[action.route] as BuildHandler<RouteDef>;
  try {
    // Encoded only: the batch simulates all its calls in order afterwards (the calls' own checks are not run).
    return encodeCall(await plan({ ...input, body } as never, ctx));
  } catch (e) {
    throw atAction(e, index, action.route);
  }
}

/** Why call `index` fails: its own simulation from the Safe, when that alone reverts. */
async function whyFails(ctx: Ctx, chainId: string, safe: string, index: number, route: string, c: EncodedCall) {
  const chain = ctx.chains.get(chainId);
  try {
    await chain.provider.call({ from: safe, to: c.to, data: c.data });
  } catch (e) {
    const reverted = revertToApiError(e, "build", c.contract, c.moves);
    if (!reverted) chainUnavailable(e, chain.config);
    // An unknown campaign is 404 on every route (docs/errors.md#unknown-campaign), in a batch too.
    const unknown = reverted.revert?.name === "CampaignNotFound";
    const error = unknown ? new ApiError("NOT_FOUND", reverted.message, reverted.details) : reverted;
    return atAction(error, index, route);
  }
  // Alone it passes: it fails on what an earlier action changed, and MultiSendCallOnly keeps the reason.
  return new ApiError(
    "WOULD_REVERT",
    `action ${index} (${route}) would revert after the actions before it (alone it would not)`,
    { action: index, route, reason: "REVERTS_AFTER_EARLIER_ACTIONS" },
  );
}

/** The batch route's handler over every route's handler (`all`, the table it is part of). */
export const safeBatchOver =
  (all: () => Handlers): Handler<typeof routes.safeBatch> =>
  async (input, ctx): Promise<SafeBatch> => {
    const { body } = input;
    const calls = await Promise.all(body.actions.map((a, i) => collect(all(), ctx, input, i, a)));
    const chainId = calls[0]!.program.chainId;
    const other = calls.findIndex((c) => c.program.chainId !== chainId);
    if (other >= 0) {
      throw new ApiError(
        "INVALID_INPUT",
        `action ${other} is on chain ${calls[other]!.program.chainId}, action 0 on ${chainId}`,
        {
          reason: "CHAINS_DIFFER",
          action: other,
        },
      );
    }
    const chain = ctx.chains.get(chainId);
    const multiSend = getAddress(body.multiSendCallOnly ?? CANONICAL_MULTISEND_CALL_ONLY);
    const [safe] = await Promise.all([safeAt(chain, body.safe), requireMultiSendCallOnly(chain, multiSend)]);
    const nonce = BigInt(body.nonce ?? safe.nonce);
    if (nonce < safe.nonce) {
      throw new ApiError(
        "CONFLICT",
        `nonce ${nonce} of Safe ${safe.address} is used; its next nonce is ${safe.nonce}`,
        {
          reason: "NONCE_USED",
          next: safe.nonce.toString(),
        },
      );
    }
    const failing = await firstFailingCall(chain, safe.address, multiSend, calls);
    if (failing !== undefined) {
      throw await whyFails(ctx, chainId, safe.address, failing, body.actions[failing]!.route, calls[failing]!);
    }
    const tx = safeTxFields({ to: multiSend, data: encodeMultiSend(calls), operation: 1 }, nonce);
    return {
      chainId,
      multiSendCallOnly: multiSend,
      actions: calls.map((c, i) => ({
        route: body.actions[i]!.route,
        to: c.to,
        data: c.data,
        call: c.call,
        ...(c.extra?.campaignId && { campaignId: c.extra.campaignId }),
      })),
      safe: safeTxAnswer(chain.chainId, safe, tx),
    };
  };
