import { AsyncLocalStorage } from "node:async_hooks";
import { getAddress, type FeeData, type FunctionFragment, type ParamType } from "ethers";
import type { ContractName, UnsignedTx } from "@points/schema";
import type { Program } from "../registry/programs.js";
import { ApiError } from "../errors.js";
import { chainUnavailable, type ChainClient } from "./client.js";
import { INTERFACES, contractAddress } from "./contracts.js";
import { revertToApiError } from "./revert.js";
import { readSafe, safeTxAnswer, safeTxFields, type SafeState } from "./safe.js";
import { unsignedType2Bytes } from "./type2.js";

/** A contract call to turn into an unsigned transaction. */
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
}

/** Options of the build route being served, set around its handler (the body's `nonce`). */
export const buildOptions = new AsyncLocalStorage<{ nonce?: number }>();

/** A call as a Safe batch takes it: encoded, not simulated (docs/architecture.md#safe-multisig). */
export interface CollectedCall {
  program: Program;
  to: string;
  data: string;
  contract: Call["contract"];
  moves?: Call["moves"];
  call: UnsignedTx["call"];
  extra?: Call["extra"];
}

/**
 * Set around a build handler run for a Safe batch: buildTx records the call here and returns
 * without simulating it, because the batch simulates all its calls in order afterwards.
 */
export const collectedCalls = new AsyncLocalStorage<CollectedCall[]>();

// Headroom over the simulated gas: state may move between build and broadcast.
const GAS_MARGIN_PERCENT = 120n;

/**
 * Simulates `call` as its signer and returns the unsigned EIP-1559 transaction
 * (docs/rules.md#the-unsigned-transaction). Nonce, gas estimate and fee data are requested together, so they share one
 * JSON-RPC batch. A revert becomes MISSING_ROLE or WOULD_REVERT; the service never signs.
 */
export async function buildTx(chain: ChainClient, call: Call): Promise<UnsignedTx> {
  const iface = INTERFACES[call.contract];
  const to = getAddress(call.address ?? contractAddress(call.program, call.contract as ContractName));
  const from = getAddress(call.from);
  const data = iface.encodeFunctionData(call.fn, call.args);
  const echo = { contract: call.contract, function: call.fn, args: echoArgs(iface.getFunction(call.fn)!, call.args) };
  const batch = collectedCalls.getStore();
  if (batch) {
    batch.push({
      program: call.program,
      to,
      data,
      contract: call.contract,
      moves: call.moves,
      call: echo,
      extra: call.extra,
    });
    // The handler's answer is dropped: the batch answers one Safe transaction for all its calls.
    return undefined as unknown as UnsignedTx;
  }
  const p = chain.provider;
  const explicit = buildOptions.getStore()?.nonce;
  let nonce: number, estimate: bigint, fees: FeeData, code: string, safe: SafeState | undefined;
  try {
    // With an explicit nonce, the mined count tells whether that nonce is already spent. The
    // signer's code tells whether it is a Safe (docs/architecture.md#safe-multisig).
    [nonce, estimate, fees, code] = await Promise.all([
      p.getTransactionCount(from, explicit === undefined ? "pending" : "latest"),
      p.estimateGas({ from, to, data }),
      chain.feeData(),
      chain.code(from),
    ]);
    safe = await readSafe(chain, from, code);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const reverted = revertToApiError(e, "build", call.contract, call.moves);
    if (reverted) throw reverted;
    chainUnavailable(e, chain.config);
  }
  // A Safe's explicit nonce is its Safe nonce (the order of its Safe transactions).
  const next = safe ? Number(safe.nonce) : nonce;
  if (explicit !== undefined) {
    if (explicit < next) {
      throw new ApiError("CONFLICT", `nonce ${explicit} of ${from} is already used; its next nonce is ${next}`, {
        nonce: explicit,
        next,
      });
    }
    if (!safe) nonce = explicit;
  }
  return {
    ...unsignedType2(chain, { from, to, data, nonce, estimate, fees }),
    call: echo,
    program: { id: call.program.id, chainId: call.program.chainId, factory: call.program.factory },
    ...call.extra,
    ...(safe && {
      safe: safeTxAnswer(chain.chainId, safe, safeTxFields({ to, data }, BigInt(explicit ?? next))),
    }),
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
    to: getAddress(t.to),
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
    if (type.type === "address" && typeof v === "string") return getAddress(v);
    return typeof v === "bigint" ? v.toString() : v;
  };
  return args.map((v, i) => echo(fn.inputs[i], v));
}
