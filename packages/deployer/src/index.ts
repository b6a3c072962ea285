/**
 * @points/deployer: deploys releases and programs (one transaction per program), upgrades
 * them and hands their admin over. Works from plain Node with any ethers v6 Signer.
 */
export { DeployerError, isDeployerError, type DeployerErrorCode } from "./errors.js";
export { Chain, isDevChain, IMPLEMENTATION_SLOT, type ChainInfo, type ChainOptions } from "./chain.js";
export { JsonFileStore, ManifestStore, MemoryStore, releaseKeyPrefix, type ManifestKind } from "./store.js";
export { normalizeConfig, BRAND_PATTERN, MAX_FEE_BPS, MAX_REDEEM_DELAY, type DeployConfig } from "./programConfig.js";
export { ensureRelease, type ReleaseOptions } from "./release.js";
export { deployProgram, type DeployOptions } from "./program.js";
export { verifyProgram, expectedHolders, type AdminAccount, type VerifyOptions, type VerifyReport } from "./verify.js";
export { safeInfo, type SafeInfo } from "./safeInfo.js";
export { upgrade, type DryRun, type ImplementationSource, type UpgradeOptions, type UpgradeResult } from "./upgrade.js";
export { validateUpgrade, type PlanOptions, type ValidationReport } from "./upgradePlan.js";
export { layoutDiff, formatLayoutDiff, shortType, type LayoutChange, type LayoutRow } from "./layouts.js";
export { syncProgram, type SyncOptions, type SyncResult } from "./sync.js";
export { brandHomes, type BrandHome, type BrandHomesOptions } from "./brandOnce.js";
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
} from "./adminStatus.js";
export {
  assertImplementationSafe,
  assertUpgradeSafe,
  storageLayoutOf,
  disablesInitializers,
  type SafetyOptions,
} from "./upgradeSafety.js";
export { loadArtifact, diskArtifact, contractsVersion, type Artifact } from "./artifacts.js";
export { FastInterface } from "./fastInterface.js";
export {
  etherscanClient,
  sourcifyClient,
  type EtherscanOptions,
  type ExplorerClient,
  type SourceResult,
  type SourceSubmission,
  type SourcifyOptions,
} from "./explorer.js";
export { sourceTargets, submissionOf, verifySources, type SourceOutcome, type SourceTarget } from "./verifySource.js";
export * from "./types.js";
export type { SignedTx, TxSender } from "./sender.js";
export {
  CANONICAL_MULTISEND_CALL_ONLY,
  SAFE_TX_TYPES,
  encodeMultiSend,
  safeTransaction,
  transactionServiceProposal,
  proposeToSafeService,
  type TransactionServiceProposal,
  type SafeCall,
  type SafeTransaction,
  type SafeTxFields,
} from "./safeTx.js";
