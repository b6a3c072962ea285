export * from "./primitives.js";
export * from "./envelope.js";
export * from "./route.js";
export * from "./tx.js";
export * from "./safe.js";
export * from "./sourceVerification.js";
export * from "./routes/factoryVerification.js";
export * from "./routes/build.js";
export * from "./routes/chainRedeem.js";
export * from "./routes/read.js";
export * from "./routes/admin.js";
export * from "./routes/adminHandover.js";
export * from "./routes/rolesHeld.js";
export * from "./routes/adminHandoverPlan.js";
export * from "./routes/studioWhitelist.js";
export * from "./routes/studioPsp.js";
export * from "./routes/studioPspBatch.js";
export * from "./routes/bulk/common.js";
export * from "./routes/bulk/mint.js";
export * from "./routes/bulk/settle.js";
export * from "./routes/bulk/expire.js";
export * from "./routes/onboarding.js";
export * from "./routes/console.js";
export * from "./routes/operatorAssets.js";
export * from "./routes/operatorWebhooks.js";
export * from "./routes/consoleWallet.js";
export * from "./routes/ledger/index.js";
export { fileRoutes, type FileRouteDef } from "./routes/ledger/exports.js";
export * from "./routes/safe/proposalCreate.js";
export * from "./routes/safe/proposalList.js";
export * from "./routes/safe/proposalGet.js";
export * from "./routes/safe/proposalSign.js";
export * from "./routes/safe/proposalExecute.js";
export * from "./routes/safe/batch.js";
export * from "./routes/desk/common.js";
export * from "./routes/desk/deskGet.js";
export * from "./routes/desk/deskPolicySet.js";
export * from "./routes/desk/deskDecide.js";
export * from "./routes/desk/deskBoundsSet.js";
export * from "./routes/devFaucet.js";
import * as build from "./routes/build.js";
import * as chainRedeem from "./routes/chainRedeem.js";
import * as read from "./routes/read.js";
import * as admin from "./routes/admin.js";
import * as adminHandover from "./routes/adminHandover.js";
import * as rolesHeld from "./routes/rolesHeld.js";
import * as adminHandoverPlan from "./routes/adminHandoverPlan.js";
import * as studioWhitelist from "./routes/studioWhitelist.js";
import * as studioPsp from "./routes/studioPsp.js";
import * as studioPspBatch from "./routes/studioPspBatch.js";
import * as bulkMint from "./routes/bulk/mint.js";
import * as bulkSettle from "./routes/bulk/settle.js";
import * as bulkExpire from "./routes/bulk/expire.js";
import * as onboarding from "./routes/onboarding.js";
import * as consoleRoutes from "./routes/console.js";
import * as operatorAssets from "./routes/operatorAssets.js";
import * as operatorWebhooks from "./routes/operatorWebhooks.js";
import * as consoleWallet from "./routes/consoleWallet.js";
import * as ledger from "./routes/ledger/index.js";
import * as safeProposalCreate from "./routes/safe/proposalCreate.js";
import * as safeProposalList from "./routes/safe/proposalList.js";
import * as safeProposalGet from "./routes/safe/proposalGet.js";
import * as safeProposalSign from "./routes/safe/proposalSign.js";
import * as safeProposalExecute from "./routes/safe/proposalExecute.js";
import * as safeBatch from "./routes/safe/batch.js";
import * as deskGet from "./routes/desk/deskGet.js";
import * as deskPolicySet from "./routes/desk/deskPolicySet.js";
import * as deskDecide from "./routes/desk/deskDecide.js";
import * as deskBoundsSet from "./routes/desk/deskBoundsSet.js";
import * as factoryVerification from "./routes/factoryVerification.js";
import * as devFaucet from "./routes/devFaucet.js";
import type { RouteDef } from "./route.js";

const isRoute = (v: unknown): v is RouteDef => typeof v === "object" && v !== null && "method" in v && "path" in v;
type RoutesOf<T> = { [K in keyof T as T[K] extends { method: string; path: string } ? K : never]: T[K] };
const pick = <T extends object>(mod: T) =>
  Object.fromEntries(Object.entries(mod).filter(([, v]) => isRoute(v))) as RoutesOf<T>;

/** Every route of the API by name: the single table the API mounts and the SDK calls. */
export const routes = {
  ...pick(build),
  ...pick(chainRedeem),
  ...pick(read),
  ...pick(admin),
  ...pick(adminHandover),
  ...pick(studioWhitelist),
  ...pick(studioPsp),
  ...pick(studioPspBatch),
  ...pick(bulkMint),
  ...pick(bulkSettle),
  ...pick(bulkExpire),
  ...pick(onboarding),
  ...pick(consoleRoutes),
  ...pick(operatorAssets),
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
  ...pick(deskBoundsSet),
  ...pick(rolesHeld),
  ...pick(adminHandoverPlan),
  ...pick(factoryVerification),
  ...pick(devFaucet),
};
export type Routes = typeof routes;
export type RouteName = keyof Routes;
