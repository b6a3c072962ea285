import { z } from "zod";
import { Address } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { SafeBatchTxAnswer } from "../../safe.js";
import { CampaignIdResolution, TxNonce, UnsignedTx } from "../../tx.js";
import type { RouteDef } from "../../route.js";
import * as buildMint from "../build/mint.js";
import * as buildRedeem from "../build/redeem.js";
import * as buildFinalizeRedeem from "../build/finalizeRedeem.js";
import * as buildTransfer from "../build/transfer.js";
import * as rolesGrant from "../roles/grant.js";
import * as freeze from "../freeze/pause.js";
import * as rolesHandover from "../roles/handover.js";
import * as factoryAllowlists from "../factory/allowlists.js";
import * as pointsAllowlists from "../points/allowlists.js";
import * as vaultCampaigns from "../vault/campaigns.js";
import * as vaultConfig from "../vault/config.js";
import * as vaultMoves from "../vault/moves.js";
import * as vaultBatch from "../vault/batch.js";

/**
 * The build routes a batch can hold: every build route whose request is a body only (the chain
 * redeem routes take their program from the path and stay single).
 */
export const SAFE_BATCH_ROUTES = [
  "buildMint",
  "buildRedeem",
  "buildFinalizeRedeem",
  "buildTransfer",
  "grantRole",
  "revokeRole",
  "pause",
  "unpause",
  "adminHandoverBegin",
  "adminHandoverAccept",
  "adminHandoverCancel",
  "whitelistMintAdd",
  "whitelistMintRemove",
  "whitelistRedeemAdd",
  "whitelistRedeemRemove",
  "whitelistTransferAdd",
  "whitelistTransferRemove",
  "pspCreateCampaign",
  "pspFundCampaign",
  "pspPauseCampaign",
  "pspResumeCampaign",
  "pspCloseCampaign",
  "pspRevokeCreator",
  "pspSetTreasury",
  "pspConfigureMinter",
  "pspUpdateSettlementWhitelist",
  "pspUpdateTransferWhitelist",
  "pspSetCampaignAdmin",
  "pspGrantRole",
  "pspRevokeRole",
  "pspMint",
  "pspTransfer",
  "pspSettle",
  "pspExpire",
  "pspMintBatch",
  "pspSettleBatch",
  "pspExpireBatch",
] as const;

/** Most calls one batch holds: MultiSendCallOnly has no limit, the block gas limit has. */
export const SAFE_BATCH_MAX_ACTIONS = 50;

const batchable = {
  ...buildMint,
  ...buildRedeem,
  ...buildFinalizeRedeem,
  ...buildTransfer,
  ...rolesGrant,
  ...freeze,
  ...rolesHandover,
  ...factoryAllowlists,
  ...pointsAllowlists,
  ...vaultCampaigns,
  ...vaultConfig,
  ...vaultMoves,
  ...vaultBatch,
};
export type SafeBatchRoute = (typeof SAFE_BATCH_ROUTES)[number];

/** The field of a route's body that names its signer: `from`, or `key` on the original build routes. */
export const signerFieldOf = (route: RouteDef): "from" | "key" =>
  "from" in (route.body as unknown as { shape: object }).shape ? "from" : "key";

type BodyOf<N extends SafeBatchRoute> = (typeof batchable)[N]["body"];
type Unsigned<T> = Omit<T, "from" | "key" | "nonce">;
/** A batch action as sent (`In`) and as validated (`Out`), one variant per route. */
type ActionIn = { [N in SafeBatchRoute]: { route: N; body: Unsigned<z.input<BodyOf<N>>> } }[SafeBatchRoute];
type ActionOut = { [N in SafeBatchRoute]: { route: N; body: Unsigned<z.output<BodyOf<N>>> } }[SafeBatchRoute];

/**
 * One action: a batchable route's name and its own body without the signer (the Safe) and
 * without `nonce` (the batch has one), so the document states every rule each action obeys.
 */
const actionOf = (name: SafeBatchRoute) => {
  const route = batchable[name] as RouteDef;
  const body = route.body as unknown as z.ZodObject;
  return z.strictObject({
    route: z.literal(name),
    body: body.omit({ [signerFieldOf(route)]: true, nonce: true } as never),
  });
};
const SafeBatchAction = z.discriminatedUnion(
  "route",
  SAFE_BATCH_ROUTES.map(actionOf) as unknown as [ReturnType<typeof actionOf>, ...ReturnType<typeof actionOf>[]],
) as unknown as z.ZodType<ActionOut, ActionIn>;

/** One call of a batch as built by its route. */
const SafeBatchCall = z.object({
  route: z.enum(SAFE_BATCH_ROUTES),
  to: Address,
  data: z.string(),
  call: UnsignedTx.shape.call,
  campaignId: CampaignIdResolution.optional(),
});

export const SafeBatch = z
  .object({
    chainId: z.string(),
    multiSendCallOnly: Address.meta({ description: "The MultiSendCallOnly v1.4.1 the Safe delegatecalls" }),
    actions: z.array(SafeBatchCall),
    safe: SafeBatchTxAnswer,
  })
  .meta({ id: "SafeBatch" });
export type SafeBatch = z.infer<typeof SafeBatch>;

export const safeBatch = defineRoute({
  method: "post",
  path: "/api/v1/safe/batch",
  summary:
    "Build one Safe transaction running several build routes' calls in order through MultiSendCallOnly (a delegatecall), each simulated from the Safe after the ones before it; a refused action is named by its index",
  tag: "safe",
  errors: ["CONFLICT", "MISSING_ROLE", "WOULD_REVERT"],
  auth: "key",
  body: z.strictObject({
    safe: Address.meta({ description: "The Safe that runs the batch (every action's signer)" }),
    actions: z.array(SafeBatchAction).min(1).max(SAFE_BATCH_MAX_ACTIONS),
    multiSendCallOnly: Address.optional().meta({
      description: "MultiSendCallOnly v1.4.1 address (default: its canonical deployment); its code is checked on chain",
    }),
    nonce: TxNonce.meta({ description: "Safe nonce to build with (default: the Safe's next nonce)" }),
  }),
  response: success(SafeBatch),
});
