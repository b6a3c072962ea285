import { createRequire } from "node:module";
import {
  Contract,
  ContractFactory,
  Interface,
  ZeroAddress,
  concat,
  getAddress,
  type ContractRunner,
  type Provider,
  type Signer,
  type TransactionReceipt,
  type Wallet,
} from "ethers";
import {
  ETHERS_SAFE_TX_TYPES,
  safeTxDomain,
  safeTxFields,
  safeTxHash as fieldsSafeTxHash,
} from "@points/contracts/program/safe";
import { devWallet } from "./keys.js";

/**
 * Safe v1.4.1 (Safe, SafeProxyFactory, MultiSendCallOnly, CompatibilityFallbackHandler) from the
 * compiled artifacts of the npm package `@safe-global/safe-contracts` 1.4.1: the same bytecode as
 * the audited release, deployed on the local chain by {@link deploySafeInfra}. Why these helpers
 * and not `@safe-global/protocol-kit`: [docs/architecture.md](../../../docs/architecture.md#safe-multisig).
 */
interface Artifact {
  abi: unknown[];
  bytecode: string;
}
const require = createRequire(import.meta.url);
const artifact = (p: string): Artifact => require(`@safe-global/safe-contracts/build/artifacts/contracts/${p}`);

export const SAFE_VERSION = "1.4.1";
export const SAFE_ARTIFACTS = {
  safe: artifact("Safe.sol/Safe.json"),
  proxyFactory: artifact("proxies/SafeProxyFactory.sol/SafeProxyFactory.json"),
  multiSendCallOnly: artifact("libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json"),
  fallbackHandler: artifact("handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json"),
};
export const safeInterface = new Interface(SAFE_ARTIFACTS.safe.abi as never);
export const multiSendInterface = new Interface(SAFE_ARTIFACTS.multiSendCallOnly.abi as never);

/** Addresses of the Safe contracts on one chain. */
export interface SafeInfra {
  singleton: string;
  proxyFactory: string;
  multiSendCallOnly: string;
  fallbackHandler: string;
}

/** Deploys the four Safe v1.4.1 contracts with `deployer` (any funded signer). */
export async function deploySafeInfra(deployer: Signer): Promise<SafeInfra> {
  const deploy = async (a: Artifact) => {
    const c = await new ContractFactory(a.abi as never, a.bytecode, deployer).deploy();
    await c.waitForDeployment();
    return c.getAddress();
  };
  return {
    singleton: await deploy(SAFE_ARTIFACTS.safe),
    proxyFactory: await deploy(SAFE_ARTIFACTS.proxyFactory),
    multiSendCallOnly: await deploy(SAFE_ARTIFACTS.multiSendCallOnly),
    fallbackHandler: await deploy(SAFE_ARTIFACTS.fallbackHandler),
  };
}

/**
 * A new Safe proxy with `owners` and `threshold` (fallback handler set), created through the
 * proxy factory by `creator`. `saltNonce` makes the address distinct per call.
 */
export async function createSafe(
  creator: Signer,
  infra: SafeInfra,
  owners: string[],
  threshold: number,
  saltNonce: bigint = BigInt(Date.now()),
): Promise<string> {
  const setup = safeInterface.encodeFunctionData("setup", [
    owners,
    threshold,
    ZeroAddress,
    "0x",
    infra.fallbackHandler,
    ZeroAddress,
    0,
    ZeroAddress,
  ]);
  const factory = new Contract(infra.proxyFactory, SAFE_ARTIFACTS.proxyFactory.abi as never, creator);
  const receipt: TransactionReceipt = await (
    await factory.getFunction("createProxyWithNonce")(infra.singleton, setup, saltNonce)
  ).wait();
  for (const log of receipt.logs) {
    const parsed = factory.interface.parseLog(log);
    if (parsed?.name === "ProxyCreation") return getAddress(parsed.args.proxy as string);
  }
  throw new Error("SafeProxyFactory emitted no ProxyCreation event");
}

/** Dev accounts owning {@link devSafe}: 6, 7 and 8 (no program role); 9 owns nothing. */
export const SAFE_OWNER_ACCOUNTS = [6, 7, 8] as const;

/**
 * The Safe infrastructure plus a 2-of-3 Safe owned by dev accounts 6, 7 and 8, created by dev
 * account 0. `owners` are the three owner wallets on `provider`, sorted by address.
 */
export async function devSafe(provider: Provider, opts: { infra?: SafeInfra; saltNonce?: bigint } = {}) {
  const creator = devWallet(0, provider);
  const infra = opts.infra ?? (await deploySafeInfra(creator));
  const owners = SAFE_OWNER_ACCOUNTS.map((i) => devWallet(i, provider)).sort((a, b) =>
    a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1,
  );
  const address = await createSafe(
    creator,
    infra,
    owners.map((o) => o.address),
    2,
    opts.saltNonce,
  );
  return { infra, address, owners, threshold: 2 };
}

/** A Safe transaction (the SafeTx struct of Safe v1.4.1). */
export interface SafeTx {
  to: string;
  value: bigint;
  data: string;
  /** 0 call, 1 delegatecall. */
  operation: 0 | 1;
  safeTxGas: bigint;
  baseGas: bigint;
  gasPrice: bigint;
  gasToken: string;
  refundReceiver: string;
  nonce: bigint;
}

/** A plain call from the Safe with no gas refund, at the Safe's current nonce. */
export async function safeTx(provider: Provider, safe: string, call: { to: string; data: string; value?: bigint }) {
  const nonce = (await new Contract(safe, safeInterface, provider).getFunction("nonce")()) as bigint;
  const tx: SafeTx = {
    to: getAddress(call.to),
    value: call.value ?? 0n,
    data: call.data,
    operation: 0,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: ZeroAddress,
    refundReceiver: ZeroAddress,
    nonce,
  };
  return tx;
}

/** The SafeTx fields of `tx` as the API answers them (integers as decimal strings). */
function txFields(tx: SafeTx) {
  return {
    ...tx,
    value: tx.value.toString(),
    safeTxGas: tx.safeTxGas.toString(),
    baseGas: tx.baseGas.toString(),
    gasPrice: tx.gasPrice.toString(),
    nonce: tx.nonce.toString(),
  };
}

/** The safeTxHash an owner signs (domain, types and hash: `@points/contracts/program/safe`). */
export function safeTxHash(chainId: bigint, safe: string, tx: SafeTx): string {
  return fieldsSafeTxHash(chainId, safe, txFields(tx));
}

/** An owner's EIP-712 signature of `tx` (65 bytes r, s, v). */
export async function signSafeTx(owner: Wallet, chainId: bigint, safe: string, tx: SafeTx): Promise<string> {
  return owner.signTypedData(safeTxDomain(chainId, safe), ETHERS_SAFE_TX_TYPES, txFields(tx));
}

/** Signatures concatenated in ascending order of their owner's address, as execTransaction wants. */
export function packSignatures(sigs: { owner: string; signature: string }[]): string {
  const sorted = [...sigs].sort((a, b) => (a.owner.toLowerCase() < b.owner.toLowerCase() ? -1 : 1));
  return concat(sorted.map((s) => s.signature));
}

/**
 * Signs `tx` with each of `signers` and sends execTransaction from `sender` (any account: the
 * signatures authorise it). Returns the receipt; a refused transaction throws.
 */
export async function execSafeTx(sender: Signer, safe: string, tx: SafeTx, signers: Wallet[]) {
  const chainId = (await sender.provider!.getNetwork()).chainId;
  const sigs = await Promise.all(
    signers.map(async (w) => ({ owner: w.address, signature: await signSafeTx(w, chainId, safe, tx) })),
  );
  return execTransaction(sender, safe, tx, packSignatures(sigs));
}

/** The ten SafeTx fields in the order of the Safe's `getTransactionHash` (the first nine are execTransaction's). */
export function safeTxArgs(tx: { [K in keyof SafeTx]: SafeTx[K] | string }) {
  return [
    tx.to,
    tx.value,
    tx.data,
    tx.operation,
    tx.safeTxGas,
    tx.baseGas,
    tx.gasPrice,
    tx.gasToken,
    tx.refundReceiver,
    tx.nonce,
  ] as const;
}

/** A plain call's SafeTx as the API answers it (integers as decimal strings, no refund). */
export function plainSafeTx(to: string, data: string, nonce: bigint | number) {
  return safeTxFields({ to, data }, BigInt(nonce));
}

/** Sends `execTransaction` of `tx` with already packed `signatures` from `sender`; waits for it. */
export async function execTransaction(
  sender: Signer,
  safe: string,
  tx: { [K in keyof SafeTx]: SafeTx[K] | string },
  signatures: string,
) {
  const s = new Contract(safe, safeInterface, sender);
  const sent = await s.getFunction("execTransaction")(...safeTxArgs(tx).slice(0, 9), signatures);
  return (await sent.wait()) as TransactionReceipt;
}

/**
 * MultiSendCallOnly's `multiSend(bytes)` data for `calls` (each a plain call): delegatecalled
 * by the Safe (operation 1) it runs them in order and reverts all if one reverts. The encoding
 * the API and the deployer use, from `@points/contracts/program/multiSend`.
 */
export { encodeMultiSend } from "@points/contracts/program/multiSend";

/** Typed helper for reading a Safe. */
export function safeContract(address: string, runner: ContractRunner) {
  return new Contract(address, safeInterface, runner);
}
