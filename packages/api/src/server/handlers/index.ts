import type { Handlers } from "../http/app.js";
// handlers/<namespace>/<file>.ts serves the routes of the schema's routes/<namespace>/<file>.ts,
// the routes the SDK's `client.<namespace>` sends (docs/architecture.md#where-a-route-lives).
import { buildMint } from "./build/mint.js";
import { buildRedeem } from "./build/redeem.js";
import { buildFinalizeRedeem } from "./build/finalizeRedeem.js";
import { buildTransfer } from "./build/transfer.js";
import { chainRedeemCancel, chainRedeemCreate, chainRedeemFinalize } from "./redeem/chainRedeem.js";
import { chainRedeemStatus } from "./redeem/status.js";
import { readBalance } from "./read/balance.js";
import { readFactoryState } from "./read/factoryState.js";
import { readFactoryAssets, readFactoryVault } from "./read/assets.js";
import { readRedeemRequest } from "./read/redeemRequest.js";
import { getFactory, listChainContracts, listFactories } from "./read/programs.js";
import { getFactoryVerification } from "./read/factoryVerification.js";
import { checkRole } from "./roles/check.js";
import { grantRole, revokeRole } from "./roles/grant.js";
import * as rolesHandover from "./roles/handover.js";
import { rolesHeld } from "./roles/held.js";
import { adminHandoverPlanOver } from "./roles/handoverPlan.js";
import { pause, unpause } from "./freeze/pause.js";
import { setFeeReceiver, setFees, setRedeemDelay } from "./settings/factorySettings.js";
import {
  whitelistMintAdd,
  whitelistMintRemove,
  whitelistRedeemAdd,
  whitelistRedeemRemove,
  whitelistStatus,
} from "./factory/allowlists.js";
import * as pointsAllowlists from "./points/allowlists.js";
import * as vaultCampaigns from "./vault/campaigns.js";
import * as vaultConfig from "./vault/config.js";
import * as vaultMoves from "./vault/moves.js";
import * as vaultBatch from "./vault/batch.js";
import * as vaultReads from "./vault/reads.js";
import { bulkPspMint } from "./bulk/mint.js";
import { bulkPspSettle } from "./bulk/settle.js";
import { bulkPspExpire } from "./bulk/expire.js";
import { onboardingDeploy } from "./onboarding/deploy.js";
import * as onboardingTasks from "./onboarding/tasks.js";
import * as onboardingAssets from "./onboarding/assets.js";
import * as operatorWebhooks from "./operator/webhooks.js";
import { operatorDeskBoundsSet } from "./operator/deskBounds.js";
import * as ledgerReads from "./ledger/reads.js";
import * as ledgerWebhooks from "./ledger/webhooks.js";
import * as safeProposals from "./safe/proposals.js";
import { safeBatchOver } from "./safe/batch.js";
import { redemptionDeskGet } from "./desk/get.js";
import { redemptionDeskPolicySet } from "./desk/policySet.js";
import { redemptionDeskDecide } from "./desk/decide.js";
import { devFaucet } from "./dev/faucet.js";
import * as consoleHandlers from "./console/console.js";
import * as consoleWallet from "./console/wallet.js";

/** Every route's handler; the type makes a missing one a compile error. */
export const handlers: Handlers = {
  buildMint,
  buildRedeem,
  buildFinalizeRedeem,
  buildTransfer,
  chainRedeemCreate,
  chainRedeemCancel,
  chainRedeemFinalize,
  chainRedeemStatus,
  readRedeemRequest,
  readBalance,
  readFactoryState,
  readFactoryAssets,
  readFactoryVault,
  listFactories,
  getFactory,
  listChainContracts,
  getFactoryVerification,
  checkRole,
  grantRole,
  revokeRole,
  ...rolesHandover,
  rolesHeld,
  adminHandoverPlan: adminHandoverPlanOver(() => handlers),
  pause,
  unpause,
  setRedeemDelay,
  setFees,
  setFeeReceiver,
  whitelistMintAdd,
  whitelistMintRemove,
  whitelistRedeemAdd,
  whitelistRedeemRemove,
  whitelistStatus,
  ...pointsAllowlists,
  ...vaultCampaigns,
  ...vaultConfig,
  ...vaultMoves,
  ...vaultBatch,
  ...vaultReads,
  bulkPspMint,
  bulkPspSettle,
  bulkPspExpire,
  onboardingDeploy,
  ...onboardingTasks,
  ...onboardingAssets,
  ...operatorWebhooks,
  operatorDeskBoundsSet,
  ...ledgerReads,
  ...ledgerWebhooks,
  ...safeProposals,
  // The batch runs other routes' handlers: it is given this table.
  safeBatch: safeBatchOver(() => handlers),
  redemptionDeskGet,
  redemptionDeskPolicySet,
  redemptionDeskDecide,
  devFaucet,
  ...consoleHandlers,
  ...consoleWallet,
};
