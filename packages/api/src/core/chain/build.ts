import type { FeeData, FunctionFragment, ParamType } from "ethers";
import type { ContractName, UnsignedTx } from "@points/schema";
import type { Program } from "../registry/programs.js";
import { ApiError } from "../errors.js";
import { checksummed } from "./address.js";
import { chainUnavailable, type ChainClient } from "./client.js";
import { INTERFACES, contractAddress } from "./contracts.js";
import { RevertError, revertToApiError } from "./revert.js";
import { readSafe, safeTxAnswer, type SafeState } from "./safe.js";
import { safeTxFields } from "@points/contracts/program/safe";
import { unsignedType2Bytes } from "./type2.js";

/**
 * A contract call a build route plans: its handler says what to call, and the service encodes,
 * simulates and prices it here (alone), or encodes it into a Safe batch
 * (docs/architecture.md#building-a-transaction).
 */
export interface Call {
  program: Program;
  contract: ContractName | "asset";
  /** Target address; defaults to the program's contract of that name. */
  address?: string;
  fn: string;
  args: unknown[];
  from: string;
  /** A token the call moves (e.g. the asset a mint pulls): its ERC-20 errors are named after it. */
  moves?: ContractName | "asset";
  /** Extra response fields (campaign id resolution, basket mode). */
  extra?: Pick<UnsignedTx, "campaignId" | "expectedBasketMode">;
  /**
   * Checked alongside the simulation when the call is built alone, and its refusal wins (the
   * campaign exists: docs/errors.md#unknown-campaign). A Safe batch skips it: an earlier action
   * may create what it checks, and the batch's in-order simulation decides.
   */
  check?: () => Promise<unknown>;
  /**
   * Runs when the simulation reverts, before the revert is answered: it may throw a better
   * answer (the approval to sign first: core/program/allowance.ts). `build` builds another call
   * with the same options.
   */
  onRevert?: (revert: RevertError, build: (call: Call) => Promise<UnsignedTx>) => Promise<void>;
}

/** What a build route's body may set about the transaction (its `nonce`). */
export interface BuildOptions {
  nonce?: number;
}

/** A call encoded for its target: what a Safe batch takes (docs/architecture.md#safe-multisig). */
export interface EncodedCall {
  program: Program;
  from: string;
  to: string;
  data: string;
  contract: Call["contract"];
  moves?: Call["moves"];
  /** The call as the answer echoes it (`call` of docs/rules.md#the-unsigned-transaction). */
  call: UnsignedTx["call"];
  extra?: Call["extra"];
}

// Headroom over the simulated gas: state may move between build and broadcast.
const GAS_MARGIN_PERCENT = 120n;

/** The call's target, sender and calldata, and its echo; no chain access. */
export function encodeCall(call: Call): EncodedCall {
  const iface = INTERFACES[call.contract];
  return {
    program: call.program,
    from: checksummed(call.from),
    to: checksummed(call.address ?? contractAddress(call.program, call.contract as ContractName)),
    data: iface.encodeFunctionData(call.fn, call.args),
    contract: call.contract,
    moves: call.moves,
    call: { contract: call.contract, function: call.fn, args: echoArgs(iface.getFunction(call.fn)!, call.args) },
    extra: call.extra,
  };
}

/**
 * Simulates `call` as its signer and returns the unsigned EIP-1559 transaction
 * (docs/rules.md#the-unsigned-transaction), with the call's own check alongside. A revert
 * becomes MISSING_ROLE or WOULD_REVERT (after the call's onRevert); the service never signs.
 */
export async function buildTx(chain: ChainClient, call: Call, opts: BuildOptions = {}): Promise<UnsignedTx> {
  const alone = async () => {
    const encoded = encodeCall(call);
    try {
      return await priceTx(chain, encoded, opts);
    } catch (e) {
      if (e instanceof RevertError && call.onRevert) await call.onRevert(e, (next) => buildTx(chain, next, opts));
      throw e;
    }
  };
  if (!call.check) return alone();
  const [checked, built] = await Promise.allSettled([call.check(), alone()]);
  if (checked.status === "rejected") throw checked.reason;
  if (built.status === "rejected") throw built.reason;
  return built.value;
}

/**
 * The simulated, priced transaction of an encoded call: the chain's answers, the nonces they
 * give, then the answer, with the Safe transaction when the signer is a Safe
 * (docs/architecture.md#safe-multisig).
 */
async function priceTx(chain: ChainClient, e: EncodedCall, opts: BuildOptions): Promise<UnsignedTx> {
  const { from, to, data } = e;
  const reads = await readForBuild(chain, e, opts.nonce);
  const nonces = buildNonces(from, opts.nonce, reads);
  return {
    ...unsignedType2(chain, { from, to, data, nonce: nonces.tx, estimate: reads.estimate, fees: reads.fees }),
    call: e.call,
    program: { id: e.program.id, chainId: e.program.chainId, factory: e.program.factory },
    ...e.extra,
    ...(reads.safe && {
      safe: safeTxAnswer(chain.chainId, reads.safe, safeTxFields({ to, data }, nonces.safe!)),
    }),
  };
}

/** What the chain says about an encoded call and its signer. */
interface BuildReads {
  /** The signer's next nonce: pending, or the mined count when the body sets a nonce. */
  nonce: number;
  estimate: bigint;
  fees: FeeData;
  /** The signer's Safe, when it is one. */
  safe: SafeState | undefined;
}

/**
 * Nonce, gas estimate (the simulation), fee data and the signer's code, requested together so
 * they share one JSON-RPC batch; then the Safe that code is, if any. A revert is the call's
 * MISSING_ROLE or WOULD_REVERT (a RevertError), any other failure CHAIN_UNAVAILABLE.
 */
async function readForBuild(chain: ChainClient, e: EncodedCall, explicit: number | undefined): Promise<BuildReads> {
  const { from, to, data } = e;
  try {
    // With an explicit nonce, the mined count tells whether that nonce is already spent.
    const [nonce, estimate, fees, code] = await Promise.all([
      chain.nonce(from, explicit === undefined ? "pending" : "latest"),
      chain.estimateGas({ from, to, data }),
      chain.feeData(),
      chain.code(from),
    ]);
    return { nonce, estimate, fees, safe: await readSafe(chain, from, code) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const reverted = revertToApiError(err, "build", e.contract, e.moves);
    if (reverted) throw reverted;
    chainUnavailable(err, chain.config);
  }
}

/**
 * The transaction's nonce and, for a Safe signer, the SafeTx's: the next ones, or the body's
 * `nonce`, which for a Safe is its Safe nonce (the order of its Safe transactions) and leaves the
 * transaction's own nonce at the next. An explicit nonce below the next is CONFLICT.
 */
function buildNonces(from: string, explicit: number | undefined, reads: BuildReads) {
  const { nonce, safe } = reads;
  const next = safe ? Number(safe.nonce) : nonce;
  if (explicit !== undefined && explicit < next) {
    throw new ApiError("CONFLICT", `nonce ${explicit} of ${from} is already used; its next nonce is ${next}`, {
      nonce: explicit,
      next,
    });
  }
  return {
    tx: explicit !== undefined && !safe ? explicit : nonce,
    safe: safe ? BigInt(explicit ?? next) : undefined,
  };
}

/**
 * The EIP-1559 transaction of a simulated call: the gas estimate with headroom, the fees, and
 * its unsigned serialization (docs/rules.md#the-unsigned-transaction).
 */
export function unsignedType2(
  chain: ChainClient,
  // `gasLimit`: a limit already proven by a simulation under it (bulk chunks), used as is.
  t: { from: string; to: string; data: string; nonce: number; estimate: bigint; fees: FeeData; gasLimit?: bigint },
) {
  const { fees } = t;
  if (fees.maxFeePerGas === null || fees.maxPriorityFeePerGas === null) {
    throw new ApiError("CHAIN_UNAVAILABLE", `chain ${chain.config.chainId} reports no EIP-1559 fee data`);
  }
  const gas = t.gasLimit ?? (t.estimate * GAS_MARGIN_PERCENT + 99n) / 100n;
  const tx = unsignedType2Bytes({
    chainId: chain.chainId,
    nonce: t.nonce,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    maxFeePerGas: fees.maxFeePerGas,
    gasLimit: gas,
    to: checksummed(t.to),
    value: 0n,
    data: t.data,
  });
  return {
    tx: tx.toString("base64"),
    type: 2 as const,
    from: t.from,
    to: t.to,
    data: t.data,
    value: "0",
    chainId: chain.chainId.toString(),
    nonce: t.nonce,
    gas: gas.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
  };
}

/** The call's arguments as JSON: integers as decimal strings, addresses checksummed (docs/rules.md#http-conventions). */
function echoArgs(fn: FunctionFragment, args: unknown[]): unknown[] {
  const echo = (type: ParamType, v: unknown): unknown => {
    if (type.isArray() && Array.isArray(v)) return v.map((x) => echo(type.arrayChildren!, x));
    if (type.type === "address" && typeof v === "string") return checksummed(v);
    return typeof v === "bigint" ? v.toString() : v;
  };
  return args.map((v, i) => echo(fn.inputs[i], v));
}
