/**
 * @points/deployer: deploys releases and programs (one transaction per program), upgrades
 * them and hands their admin over. Works from plain Node with any ethers v6 Signer.
 */
export { DeployerError, isDeployerError, type DeployerErrorCode } from "./errors.js";
export { Chain, isDevChain, IMPLEMENTATION_SLOT, type ChainInfo, type ChainOptions } from "./chain.js";
export { JsonFileStore, ManifestStore, MemoryStore } from "./store.js";
export { normalizeConfig, BRAND_PATTERN, MAX_FEE_BPS, MAX_REDEEM_DELAY, type DeployConfig } from "./program-config.js";
export { ensureRelease, type ReleaseOptions } from "./release.js";
export { deployProgram, type DeployOptions } from "./program.js";
export { verifyProgram, expectedHolders, type AdminAccount, type VerifyOptions, type VerifyReport } from "./verify.js";
export { safeInfo, type SafeInfo } from "./safe-info.js";
export { upgrade, type DryRun, type ImplementationSource, type UpgradeOptions, type UpgradeResult } from "./upgrade.js";
export { validateUpgrade, type PlanOptions, type ValidationReport } from "./upgrade-plan.js";
export { layoutDiff, formatLayoutDiff, shortType, type LayoutChange, type LayoutRow } from "./layouts.js";
export { syncProgram, type SyncOptions, type SyncResult } from "./sync.js";
export { brandHomes, type BrandHome, type BrandHomesOptions } from "./brand-once.js";
export { importProgram, type ImportOptions, type ImportResult } from "./import.js";
export { handoverAdmin, acceptAdmin, cancelAdminTransfer, type AdminOptions, type AdminResult } from "./admin.js";
export {
  adminStatus,
  adminTransactions,
  type AdminAction,
  type AdminStatus,
  type AdminStatusOptions,
  type ContractAdminState,
  type UnsignedTransaction,
} from "./admin-status.js";
export {
  assertImplementationSafe,
  assertUpgradeSafe,
  storageLayoutOf,
  disablesInitializers,
  type SafetyOptions,
} from "./upgrade-safety.js";
export { loadArtifact, diskArtifact, contractsVersion, type Artifact } from "./artifacts.js";
export {
  etherscanClient,
  sourcifyClient,
  type EtherscanOptions,
  type ExplorerClient,
  type SourceResult,
  type SourceSubmission,
  type SourcifyOptions,
} from "./explorer.js";
export { sourceTargets, submissionOf, verifySources, type SourceOutcome, type SourceTarget } from "./verify-source.js";
export * from "./types.js";
export type { SignedTx, TxSender } from "./sender.js";
export {
  CANONICAL_MULTISEND_CALL_ONLY,
  SAFE_TX_TYPES,
  encodeMultiSend,
  proposeToApi,
  safeTransaction,
  transactionServiceProposal,
  proposeToSafeService,
  type TransactionServiceProposal,
  type SafeCall,
  type SafeTransaction,
  type SafeTxFields,
} from "./safe-tx.js";
