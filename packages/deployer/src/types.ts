import type { StorageLayout } from "@openzeppelin/upgrades-core";
import { CONTRACT_ARTIFACTS, PROGRAM_CONTRACTS, type ProgramContract, type StageName } from "@points/contracts/program";

/** The contracts of a program (by the names the records, the CLI and the API use) and their artifacts. */
export { PROGRAM_CONTRACTS, type ProgramContract };

/** The artifact each program contract's release implementation is built from. */
export const IMPLEMENTATION_ARTIFACTS = Object.fromEntries(
  PROGRAM_CONTRACTS.map((k) => [k, CONTRACT_ARTIFACTS[k]]),
) as Record<ProgramContract, string>;

export type { StageName };
export type StageStatus = "done" | "skipped" | "failed";

/** Which flow a stage belongs to: a program (`brand`) or a release (`version`) on a chain. */
export interface StageContext {
  chainId: bigint;
  brand?: string;
  version?: string;
}

/** A transaction as recorded right after it was sent, before its receipt. */
export interface TxInfo {
  hash: string;
  nonce: number;
  to?: string;
  description: string;
  /**
   * The signed transaction, kept while its stage runs: a run resumed after a crash sends this
   * very transaction again rather than a new one for the same purpose (dropped once the stage
   * is done, when every transaction of it is final).
   */
  raw?: string;
}

/** What a store keeps of one stage (returned by `getStages`). */
export interface StageRecord {
  status: "running" | StageStatus;
  startedAt: string;
  finishedAt?: string;
  transactions: (TxInfo & { sentAt: string })[];
  /** Addresses reported so far; reported before sending they are the predicted ones. */
  addresses: Record<string, string>;
  /** For contracts created with CREATE: the nonce each planned address belongs to. */
  nonces?: Record<string, number>;
  error?: string;
}

/** One contract creation. */
export interface ContractDeployment {
  artifact: string;
  address: string;
  /** keccak256 of the runtime bytecode read from the chain. */
  codeHash: string;
  txHash?: string;
  blockNumber?: number;
  nonce?: number;
  /** Set on an implementation a release reused instead of deploying it: "release <version>". */
  reusedFrom?: string;
}

/**
 * The storage layout of one deployed implementation, as OpenZeppelin's upgrades-core extracts it
 * (ERC-7201 namespaces included). Records key these by the keccak256 of the implementation's
 * runtime bytecode on chain, so an upgrade compares with what is deployed, never with sources.
 */
export interface RecordedLayout {
  artifact: string;
  address: string;
  layout: StorageLayout;
}

/** Recorded layouts by runtime bytecode hash. */
export type LayoutRecords = Record<string, RecordedLayout>;

/** The shared implementations and the ProgramFactory of one version on one chain. */
export interface Release {
  chainId: bigint;
  version: string;
  /** The account that deployed it (admin and first operator of the ProgramFactory). */
  deployer: string;
  programFactory: string;
  implementations: Record<ProgramContract, string>;
  contracts: Record<ProgramContract | "programFactory", ContractDeployment>;
  /** Layouts of the implementations whose code matched their artifact when recorded. */
  layouts?: LayoutRecords;
  createdAt: string;
}

/** One proxy of a program and what runs behind it. */
export interface ProgramContractRecord {
  proxy: string;
  implementation: string;
  /** The artifact the implementation was built from (changes with upgrades). */
  artifact: string;
  implementationCodeHash: string;
  proxyCodeHash: string;
}

export interface UpgradeRecord {
  contract: ProgramContract;
  fromArtifact: string;
  toArtifact: string;
  oldImplementation: string;
  newImplementation: string;
  /**
   * "sent": the upgrade transaction landed; "proposed": an unsigned transaction was returned;
   * "executed": sent outside the deployer (a multisig, a script) and found on chain by sync.
   */
  status: "sent" | "proposed" | "executed";
  /** Set by sync on an executed upgrade the deployer would have refused: why (it runs on chain anyway). */
  unsafe?: string;
  txHash?: string;
  at: string;
}

export interface AdminTransferRecord {
  newAdmin: string;
  /** Unix time after which each contract accepts. */
  schedules: Partial<Record<ProgramContract, number>>;
  txHashes: string[];
  at: string;
}

/** The normalized configuration a program was born with (JSON-safe). */
export interface ProgramConfigRecord {
  brand: string;
  tokenName: string;
  tokenSymbol: string;
  collateralAsset: string;
  oracle?: { feed: string; heartbeat: number; lowerPeg: string; upperPeg: string };
  deployer: string;
  feeReceiver: string;
  mintFeeBps: number;
  redeemFeeBps: number;
  redeemDelay: number;
  adminDelay: number;
  /** Present (false) only when the executor was left without EXECUTOR_ROLE at birth. */
  executorRole?: false;
}

/** Everything known about one deployed program; the manifest `<chainId>/<brand>.json`. */
export interface ProgramRecord {
  chainId: bigint;
  brand: string;
  version: string;
  programFactory: string;
  /** The brand's wallet: every admin role at birth. */
  deployer: string;
  /** The current DEFAULT_ADMIN_ROLE holder (the deployer until a handover is accepted). */
  admin: string;
  executor: string;
  /** Proxy addresses by contract. */
  addresses: Partial<Record<ProgramContract, string>>;
  contracts: Partial<Record<ProgramContract, ProgramContractRecord>>;
  collateralAsset: string;
  /** Set when the collateral is a MockStablecoin deployed for this program (dev chains). */
  collateralMock?: ContractDeployment;
  txHash: string;
  blockNumber: number;
  /** Holders of every role right after the deployment transaction, by contract and role name. */
  roles: Partial<Record<ProgramContract, Record<string, string[]>>>;
  /** Accounts on the Points transfer allowlist at birth. */
  transferAllowlist: string[];
  config: ProgramConfigRecord;
  upgrades: UpgradeRecord[];
  pendingAdmin?: AdminTransferRecord;
  /** Layouts of every implementation this program ran or was proposed, by runtime bytecode hash. */
  layouts?: LayoutRecords;
  createdAt: string;
}

/**
 * Where the deployer reports progress and keeps its records: the CLI uses a JSON manifest
 * (JsonFileStore), the API its database. Stage methods are called before and after every
 * transaction, so a crash at any point leaves enough to resume (see README, "Resume").
 */
export interface DeploymentStore {
  /** The release of `version` (the newest one when omitted). */
  getRelease(chainId: bigint, version?: string): Promise<Release | undefined>;
  saveRelease(release: Release): Promise<void>;
  getProgram(chainId: bigint, brand: string): Promise<ProgramRecord | undefined>;
  saveProgram(record: ProgramRecord): Promise<void>;
  stageStarted(ctx: StageContext, stage: StageName): Promise<void> | void;
  /** Called right after a transaction is sent, before its receipt. */
  stageTransaction(ctx: StageContext, stage: StageName, tx: TxInfo): Promise<void> | void;
  /** Called before sending (predicted addresses, with their CREATE nonces) and after. */
  stageAddresses(
    ctx: StageContext,
    stage: StageName,
    addresses: Record<string, string>,
    meta?: { nonces?: Record<string, number> },
  ): Promise<void> | void;
  stageFinished(ctx: StageContext, stage: StageName, status: StageStatus, error?: string): Promise<void> | void;
  /**
   * Optional: the stages recorded for `ctx`. With it a resumed release also finds contracts
   * sent long ago; without it the deployer searches the signer's last nonces only.
   */
  getStages?(ctx: StageContext): Promise<Partial<Record<StageName, StageRecord>> | undefined>;
  /**
   * Optional: every release recorded for the chain. With it `deploy` asks each of their
   * ProgramFactories whether the brand already exists (a brand exists once per chain).
   */
  getReleases?(chainId: bigint): Promise<Release[]>;
  /**
   * Optional: every program recorded for the chain. With it an upgrade reuses an implementation
   * another program of the chain already deployed with the same bytecode instead of deploying a
   * second copy.
   */
  getPrograms?(chainId: bigint): Promise<ProgramRecord[]>;
}
