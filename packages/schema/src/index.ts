export * from "./primitives.js";
export * from "./envelope.js";
export * from "./route.js";
export * from "./tx.js";
export * from "./safe.js";
export * from "./sourceVerification.js";
// routes/<namespace>/ holds the routes the SDK's `client.<namespace>` sends (docs/architecture.md#where-a-route-lives).
export * from "./routes/read/factoryVerification.js";
export { buildBody, buildEnvelope } from "./routes/build/common.js";
export * from "./routes/build/mint.js";
export * from "./routes/build/redeem.js";
export * from "./routes/build/finalizeRedeem.js";
export * from "./routes/build/transfer.js";
export * from "./routes/redeem/chainRedeem.js";
export * from "./routes/redeem/status.js";
export { ProgramQuery } from "./routes/read/common.js";
export * from "./routes/read/programs.js";
export * from "./routes/read/balance.js";
export * from "./routes/read/factoryState.js";
export * from "./routes/read/assets.js";
export * from "./routes/read/redeemRequest.js";
export * from "./routes/roles/check.js";
export * from "./routes/roles/grant.js";
export * from "./routes/freeze/pause.js";
export * from "./routes/settings/factorySettings.js";
export * from "./routes/roles/handover.js";
export * from "./routes/roles/held.js";
export * from "./routes/roles/handoverPlan.js";
export {
  whitelistMintAdd,
  whitelistMintRemove,
  whitelistRedeemAdd,
  whitelistRedeemRemove,
  whitelistStatus,
} from "./routes/factory/allowlists.js";
export * from "./routes/points/allowlists.js";
export * from "./routes/vault/campaigns.js";
export * from "./routes/vault/config.js";
export * from "./routes/vault/moves.js";
export * from "./routes/vault/reads.js";
export * from "./routes/vault/batch.js";
export * from "./routes/bulk/common.js";
export * from "./routes/bulk/mint.js";
export * from "./routes/bulk/settle.js";
export * from "./routes/bulk/expire.js";
export { OnboardingRequest, ProgramAddresses, onboardingDeploy } from "./routes/onboarding/deploy.js";
export * from "./routes/onboarding/tasks.js";
export * from "./routes/console/console.js";
export * from "./routes/onboarding/assets.js";
export * from "./routes/operator/webhooks.js";
export * from "./routes/console/wallet.js";
export * from "./routes/ledger/index.js";
export { fileRoutes, type FileRouteDef } from "./routes/ledger/exports.js";
export * from "./routes/safe/proposals/create.js";
export * from "./routes/safe/proposals/list.js";
export * from "./routes/safe/proposals/get.js";
export * from "./routes/safe/proposals/sign.js";
export * from "./routes/safe/proposals/execute.js";
export * from "./routes/safe/batch.js";
export * from "./routes/desk/common.js";
export * from "./routes/desk/get.js";
export * from "./routes/desk/policySet.js";
export * from "./routes/desk/decide.js";
export * from "./routes/operator/deskBounds.js";
export * from "./routes/dev/faucet.js";
import * as buildMint from "./routes/build/mint.js";
import * as buildRedeem from "./routes/build/redeem.js";
import * as buildFinalizeRedeem from "./routes/build/finalizeRedeem.js";
import * as buildTransfer from "./routes/build/transfer.js";
import * as redeemChainRedeem from "./routes/redeem/chainRedeem.js";
import * as redeemStatus from "./routes/redeem/status.js";
import * as readPrograms from "./routes/read/programs.js";
import * as readBalance from "./routes/read/balance.js";
import * as readFactoryState from "./routes/read/factoryState.js";
import * as readAssets from "./routes/read/assets.js";
import * as readRedeemRequest from "./routes/read/redeemRequest.js";
import * as readFactoryVerification from "./routes/read/factoryVerification.js";
import * as rolesCheck from "./routes/roles/check.js";
import * as rolesGrant from "./routes/roles/grant.js";
import * as rolesHandover from "./routes/roles/handover.js";
import * as rolesHeld from "./routes/roles/held.js";
import * as rolesHandoverPlan from "./routes/roles/handoverPlan.js";
import * as freeze from "./routes/freeze/pause.js";
import * as settings from "./routes/settings/factorySettings.js";
import * as factoryAllowlists from "./routes/factory/allowlists.js";
import * as pointsAllowlists from "./routes/points/allowlists.js";
import * as vaultCampaigns from "./routes/vault/campaigns.js";
import * as vaultConfig from "./routes/vault/config.js";
import * as vaultMoves from "./routes/vault/moves.js";
import * as vaultReads from "./routes/vault/reads.js";
import * as vaultBatch from "./routes/vault/batch.js";
import * as bulkMint from "./routes/bulk/mint.js";
import * as bulkSettle from "./routes/bulk/settle.js";
import * as bulkExpire from "./routes/bulk/expire.js";
import * as onboardingDeploy from "./routes/onboarding/deploy.js";
import * as onboardingTasks from "./routes/onboarding/tasks.js";
import * as onboardingAssets from "./routes/onboarding/assets.js";
import * as consoleRoutes from "./routes/console/console.js";
import * as consoleWallet from "./routes/console/wallet.js";
import * as operatorWebhooks from "./routes/operator/webhooks.js";
import * as operatorDeskBounds from "./routes/operator/deskBounds.js";
import * as ledger from "./routes/ledger/index.js";
import * as safeProposalCreate from "./routes/safe/proposals/create.js";
import * as safeProposalList from "./routes/safe/proposals/list.js";
import * as safeProposalGet from "./routes/safe/proposals/get.js";
import * as safeProposalSign from "./routes/safe/proposals/sign.js";
import * as safeProposalExecute from "./routes/safe/proposals/execute.js";
import * as safeBatch from "./routes/safe/batch.js";
import * as deskGet from "./routes/desk/get.js";
import * as deskPolicySet from "./routes/desk/policySet.js";
import * as deskDecide from "./routes/desk/decide.js";
import * as devFaucet from "./routes/dev/faucet.js";
import type { RouteDef } from "./route.js";

const isRoute = (v: unknown): v is RouteDef => typeof v === "object" && v !== null && "method" in v && "path" in v;
type RoutesOf<T> = { [K in keyof T as T[K] extends { method: string; path: string } ? K : never]: T[K] };
type Merged<T extends object[]> = T extends [infer H, ...infer R extends object[]] ? H & Merged<R> : unknown;
/**
 * The routes of one or more modules in name order, the order of one module's exports: a file
 * split in several keeps its routes where they were in the table.
 */
const pick = <T extends object[]>(...mods: T) =>
  Object.fromEntries(
    mods
      .flatMap((mod) => Object.entries(mod).filter(([, v]) => isRoute(v)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ) as RoutesOf<Merged<T>>;

/**
 * Every route of the API by name: the single table the API mounts and the SDK calls. Its order
 * is the order the API registers them in and the OpenAPI document lists them in (the surface
 * snapshot in packages/api/test holds both), so it is kept as it is, not by namespace.
 */
export const routes = {
  ...pick(buildFinalizeRedeem, buildMint, buildRedeem, buildTransfer),
  ...pick(redeemChainRedeem, redeemStatus),
  ...pick(rolesCheck, readPrograms, readBalance, readFactoryState, readAssets, readRedeemRequest),
  ...pick(rolesGrant, freeze),
  ...pick(settings),
  ...pick(rolesHandover),
  ...pick(factoryAllowlists, pointsAllowlists),
  ...pick(vaultCampaigns, vaultConfig, vaultMoves, vaultReads),
  ...pick(vaultBatch),
  ...pick(bulkMint),
  ...pick(bulkSettle),
  ...pick(bulkExpire),
  ...pick(onboardingDeploy, onboardingTasks),
  ...pick(consoleRoutes),
  ...pick(onboardingAssets),
  ...pick(operatorWebhooks),
  ...pick(consoleWallet),
  ...pick(ledger),
  ...pick(safeProposalCreate),
  ...pick(safeProposalList),
  ...pick(safeProposalGet),
  ...pick(safeProposalSign),
  ...pick(safeProposalExecute),
  ...pick(safeBatch),
  ...pick(deskGet),
  ...pick(deskPolicySet),
  ...pick(deskDecide),
  ...pick(operatorDeskBounds),
  ...pick(rolesHeld),
  ...pick(rolesHandoverPlan),
  ...pick(readFactoryVerification),
  ...pick(devFaucet),
};
export type Routes = typeof routes;
export type RouteName = keyof Routes;
