import type { Handlers } from "../http/app.js";
import { buildMint } from "./build/mint.js";
import { buildRedeem } from "./build/redeem.js";
import { buildFinalizeRedeem } from "./build/finalizeRedeem.js";
import { buildTransfer } from "./build/transfer.js";
import { chainRedeemCancel, chainRedeemCreate, chainRedeemFinalize } from "./redeem/chainRedeem.js";
import { chainRedeemStatus, readRedeemRequest } from "./redeem/status.js";
import { readBalance } from "./read/balance.js";
import { readFactoryState } from "./read/factoryState.js";
import { readFactoryAssets, readFactoryVault } from "./read/assets.js";
import { getFactory, listChainContracts, listFactories } from "./read/programs.js";
import { getFactoryVerification } from "./read/factoryVerification.js";
import { checkRole } from "./read/checkRole.js";
import { grantRole, revokeRole } from "./admin/roles.js";
import { pause, unpause } from "./admin/freeze.js";
import * as adminHandover from "./admin/handover.js";
import * as whitelist from "./studio/whitelist.js";
import * as campaigns from "./studio/pspCampaigns.js";
import * as ledger from "./studio/pspLedger.js";
import * as config from "./studio/pspConfig.js";
import * as pspReads from "./studio/pspReads.js";
import { onboardingDeploy } from "./onboarding/deploy.js";
import * as onboardingTasks from "./onboarding/tasks.js";
import * as consoleHandlers from "./console.js";
import { operatorAssetsList } from "./operator/listAssets.js";
import { operatorAssetAdd } from "./operator/addAsset.js";
import { operatorAssetRemove } from "./operator/removeAsset.js";
import { operatorDeskBoundsSet } from "./operator/deskBounds.js";
import {
  operatorWebhookDelete,
  operatorWebhookPause,
  operatorWebhookResume,
  operatorWebhooksList,
} from "./operator/webhooks.js";
import { consoleWalletNonce } from "./wallet/nonce.js";
import { consoleWalletProve } from "./wallet/prove.js";
import * as ledgerReads from "./ledger.js";
import * as webhooks from "./webhooks.js";
import * as safeProposals from "./safe/proposals.js";
import { bulkPspMint } from "./bulk/mint.js";
import { bulkPspSettle } from "./bulk/settle.js";
import { bulkPspExpire } from "./bulk/expire.js";
import { safeBatchOver } from "./safe/batch.js";
import { redemptionDeskGet } from "./desk/get.js";
import { redemptionDeskPolicySet } from "./desk/policySet.js";
import { redemptionDeskDecide } from "./desk/decide.js";
import { rolesHeld } from "./admin/rolesHeld.js";
import { adminHandoverPlanOver } from "./admin/handoverPlan.js";
import { devFaucet } from "./dev/faucet.js";

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
  checkRole,
  grantRole,
  revokeRole,
  pause,
  unpause,
  ...adminHandover,
  ...whitelist,
  ...campaigns,
  ...ledger,
  ...config,
  ...pspReads,
  onboardingDeploy,
  ...onboardingTasks,
  ...consoleHandlers,
  operatorAssetsList,
  operatorAssetAdd,
  operatorAssetRemove,
  operatorWebhooksList,
  operatorWebhookPause,
  operatorWebhookResume,
  operatorWebhookDelete,
  operatorDeskBoundsSet,
  consoleWalletNonce,
  consoleWalletProve,
  ...ledgerReads,
  ...webhooks,
  ...safeProposals,
  bulkPspMint,
  bulkPspSettle,
  bulkPspExpire,
  // The batch runs other routes' handlers: it is given this table.
  safeBatch: safeBatchOver(() => handlers),
  rolesHeld,
  adminHandoverPlan: adminHandoverPlanOver(() => handlers),
  redemptionDeskGet,
  redemptionDeskPolicySet,
  redemptionDeskDecide,
  getFactoryVerification,
  devFaucet,
};
