import { getAddress, toQuantity } from "ethers";
import type { BulkPlan, UnsignedTx } from "@points/schema";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { contract, read, target, type Target } from "../program/target.js";
import { campaignId as resolveCampaign } from "../program/campaign.js";
import { INTERFACES } from "../chain/contracts.js";
import { unsignedType2 } from "../chain/build.js";
import { revertToApiError } from "../chain/revert.js";
import { chainUnavailable } from "../chain/client.js";
import { readSafe, safeTxAnswer } from "../chain/safe.js";
import { safeTxFields } from "@points/contracts/program/safe";
import { encodeBatchCall, type BulkArg } from "./abi.js";
import { checkRows, deriveBulkId, readRows, type RawRow, type Row } from "./rows.js";
import { doneRows, doneSummary, remainingRows } from "./landed.js";
import { chunkRows, FALLBACK_GAS, measureGas, rowsPerChunk, withMargin, type GasModel } from "./gas.js";

/** What a bulk request carries once its body is parsed. */
export interface BulkRequest {
  campaignId: string;
  recipients: string | RawRow[];
  metadata: string;
  bulkId?: string;
  dryRun: boolean;
  gasCeiling: number;
  from: string;
  program?: string;
}

/** What an operation's own checks found (docs/rules.md#bulk-requests). */
export interface Checked {
  budget?: BulkPlan["budget"];
  minter?: BulkPlan["minter"];
  /** The error the drop as a whole would revert with. */
  blocked?: ApiError;
  notAllowed: BulkPlan["notAllowed"];
  /** Rows the chain accepts as they are (or trimmed to their balance): what the probe simulates. */
  probe: Row[];
}

/** One bulk operation: its batch function and the checks it needs before chunking. */
export interface BulkOp {
  operation: BulkPlan["operation"];
  fn: "mintBatch" | "settleBatch" | "expireBatch";
  args: (id: string, rows: Row[], metadata: string) => BulkArg[];
  check: (t: Target, id: string, rows: Row[], from: string) => Promise<Checked>;
  /** Rows to measure gas on before the checks end, when they do not depend on them. */
  probe?: (rows: Row[]) => Row[];
}

/** A chunk's tag; `after` (the highest chunk number already issued under the bulk id) keeps it unique. */
const tagOf = (bulkId: string, i: number, n: number, after = 0) => `bulk:${bulkId}:${after + i + 1}/${after + n}`;
const onChainMetadata = (metadata: string, tag: string) => (metadata === "" ? tag : `${metadata} ${tag}`);

/** Chain calls of a bulk request: reverts become MISSING_ROLE / WOULD_REVERT, a dead node 502. */
async function onChain<T>(t: Target, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const reverted = revertToApiError(e, "build", "pspVault");
    if (reverted) throw reverted;
    chainUnavailable(e, t.chain.config);
  }
}

/**
 * A bulk request's plan (docs/rules.md#bulk-requests): every row checked first (all bad rows
 * at once), the operation's checks, the gas of one row measured, the rows chunked under the
 * gas ceiling; unless a dry run, every chunk simulated as `from` and built with consecutive
 * nonces (Safe nonces for a Safe signer, with the typed data its owners sign).
 */
export async function bulkPlan(ctx: Ctx, body: BulkRequest, op: BulkOp): Promise<BulkPlan> {
  const id = resolveCampaign(body.campaignId);
  const t = await target(ctx, body.program);
  const from = getAddress(body.from);
  const points = contract(t, "points");
  const decimals = Number(
    await read(t, "points", () =>
      t.chain.immutable(`decimals:${t.program.points}`, () => points.getFunction("decimals")()),
    ),
  );
  const requested = checkRows(await readRows(body.recipients), decimals, body.metadata);
  await read(t, "pspVault", () => contract(t, "pspVault").getFunction("getCampaign")(id.value));
  const total = requested.reduce((s, r) => s + r.amount, 0n);
  const bulkId = body.bulkId ?? deriveBulkId([op.operation, id.value, from, t.program.id], requested);
  // The bulk id is the drop's idempotency key: rows it already issued (on chain or pending) are
  // left out, whatever plan the caller kept (docs/bulk-idempotency.md).
  const issued = await onChain(t, () => doneRows(t, op.operation, id.value, bulkId, from));
  const rows = remainingRows(bulkId, requested, issued);
  const done = doneSummary(issued);
  const after = done.highestIndex;
  const vault = getAddress(t.program.pspVault);
  const selector = INTERFACES.pspVault.getFunction(op.fn)!.selector;
  // A chunk is encoded once for its simulation and reused for its transaction.
  const encoded = new Map<Row[], { metadata: string; data: string }>();
  const encode = (chunk: Row[], metadata: string) => {
    const known = encoded.get(chunk);
    if (known?.metadata === metadata) return known.data;
    const data = encodeBatchCall(selector, op.args(id.value, chunk, metadata));
    encoded.set(chunk, { metadata, data });
    return data;
  };
  // The probe carries the longest tag a chunk can have, so its calldata is never shorter.
  const longTag = tagOf(bulkId, 99_999, 99_999, after);
  const estimate = (chunk: Row[], metadata: string) =>
    onChain(t, () => t.chain.provider.estimateGas({ from, to: vault, data: encode(chunk, metadata) }));

  // What every plan says of the drop, whether or not anything is left to build.
  type Status = Pick<Awaited<ReturnType<typeof op.check>>, "budget" | "minter">;
  const summary = (fromBlock: number, gasPerRow: bigint, status?: Status) => ({
    operation: op.operation,
    bulkId,
    dryRun: body.dryRun,
    from,
    campaignId: id,
    program: { id: t.program.id, chainId: t.program.chainId, factory: t.program.factory },
    decimals,
    rowCount: requested.length,
    totalAmount: total.toString(),
    fromBlock,
    gasCeiling: body.gasCeiling,
    gasPerRow: gasPerRow.toString(),
    ...(status?.budget && { budget: status.budget }),
    ...(status?.minter && { minter: status.minter }),
    done,
  });
  if (rows.length === 0) {
    // Every row was issued already: nothing to build, and the answer says so. A dry run still reports the
    // campaign's budget and the signer's minter limit as they stand now (the rows' own findings are moot).
    const status = body.dryRun ? await op.check(t, id.value, requested, from) : undefined;
    const fromBlock = await onChain(t, () => t.chain.provider.getBlockNumber());
    return { ...summary(fromBlock, 0n, status), notAllowed: [], chunkCount: 0, chunks: [] };
  }
  // Mint measures its gas on the rows as they are (amounts of 1 wei) alongside its checks.
  const early = op.probe
    ? measureGas(op.probe(rows), (r) => estimate(r, onChainMetadata(r[0].metadata, longTag)))
    : undefined;
  early?.catch(() => undefined);
  const [checked, fromBlock] = await Promise.all([
    op.check(t, id.value, rows, from),
    onChain(t, () => t.chain.provider.getBlockNumber()),
  ]);
  if (!body.dryRun && checked.blocked) throw checked.blocked;
  if (!body.dryRun && checked.notAllowed.length) {
    throw new ApiError(
      "WOULD_REVERT",
      `${checked.notAllowed.length} row(s) hold less pSP than their amount: nothing was built (details.rows; a dry run lists them too)`,
      { contract: "pspVault", name: "InsufficientPSPBalance", rows: checked.notAllowed },
    );
  }
  const model: GasModel = await (
    early ?? measureGas(checked.probe, (r) => estimate(r, onChainMetadata(r[0].metadata, longTag)))
  ).catch((e: unknown) => {
    // A dry run of a drop the chain refuses as a whole (reported in `blocked`) still counts chunks.
    if (body.dryRun && checked.blocked && e instanceof ApiError && e.code === "WOULD_REVERT") return FALLBACK_GAS;
    throw e;
  });
  let chunks = chunkRows(rows, rowsPerChunk(model, body.gasCeiling));
  const base = { ...summary(fromBlock, model.perRow, checked), notAllowed: checked.notAllowed };
  const describe = (list: Row[][], gas: bigint[]) =>
    list.map((c, i) => {
      const tag = tagOf(bulkId, i, list.length, after);
      return {
        index: i,
        firstRow: c[0].row,
        rowCount: c.length,
        totalAmount: c.reduce((s, r) => s + r.amount, 0n).toString(),
        metadata: onChainMetadata(c[0].metadata, tag),
        tag,
        simulatedGas: gas[i].toString(),
      };
    });

  if (body.dryRun) {
    const predicted = chunks.map((c) => withMargin(model.base + model.perRow * BigInt(c.length)));
    const blocked = checked.blocked?.details as BulkPlan["blocked"] | undefined;
    return {
      ...base,
      ...(blocked && { blocked: { contract: blocked.contract, name: blocked.name, args: blocked.args } }),
      chunkCount: chunks.length,
      chunks: describe(chunks, predicted),
    };
  }
  // Simulate every chunk under the gas limit it will carry; one over the ceiling (rows dearer
  // than the probe's) is halved.
  const ceiling = BigInt(body.gasCeiling);
  const simulate = async (c: Row[], metadata: string): Promise<bigint> => {
    const predicted = withMargin(model.base + model.perRow * BigInt(c.length));
    if (predicted <= ceiling) {
      // One execution: a call that succeeds under this gas limit proves the limit is enough.
      try {
        // eth_call as JSON-RPC: ethers' call() copies and re-hexes a 19 kB calldata byte by byte.
        await t.chain.provider.send("eth_call", [
          { from, to: vault, data: encode(c, metadata), gas: toQuantity(predicted) },
          "latest",
        ]);
        return predicted;
      } catch (e) {
        const reverted = revertToApiError(e, "build", "pspVault");
        if (reverted?.revert) throw reverted;
        if (!reverted) chainUnavailable(e, t.chain.config);
        // No revert data: out of gas under the prediction; the node's estimate decides.
      }
    }
    return withMargin(await estimate(c, metadata));
  };
  let gas: bigint[] = [];
  for (;;) {
    gas = await Promise.all(
      chunks.map((c, i) => simulate(c, onChainMetadata(c[0].metadata, tagOf(bulkId, i, chunks.length, after)))),
    );
    const over = gas.findIndex((g) => g > ceiling);
    if (over < 0) break;
    if (chunks[over].length === 1) {
      throw new ApiError("WOULD_REVERT", `one row alone needs ${gas[over]} gas, above the gas ceiling`, {
        row: chunks[over][0].row,
        gas: gas[over].toString(),
        gasCeiling: body.gasCeiling,
      });
    }
    chunks = chunks.flatMap((c) => (c === chunks[over] ? [c.slice(0, c.length >> 1), c.slice(c.length >> 1)] : [c]));
  }
  const described = describe(chunks, gas);
  const txs = await buildChunks(
    t,
    from,
    described.map((d, i) => ({ data: encode(chunks[i], d.metadata), gasLimit: gas[i] })),
  );
  return {
    ...base,
    chunkCount: chunks.length,
    chunks: described.map((d, i) => ({
      ...d,
      tx: {
        ...txs[i],
        call: { contract: "pspVault", function: op.fn, args: echo(op.args(id.value, chunks[i], d.metadata)) },
        program: base.program,
        campaignId: id,
      },
    })),
  };
}

/** The unsigned transactions of the chunks, with consecutive nonces from the signer's next one. */
async function buildChunks(t: Target, from: string, chunks: { data: string; gasLimit: bigint }[]) {
  const p = t.chain.provider;
  const to = getAddress(t.program.pspVault);
  const [nonce, fees, code] = await onChain(t, () =>
    Promise.all([p.getTransactionCount(from, "pending"), t.chain.feeData(), t.chain.code(from)]),
  );
  const safe = await onChain(t, () => readSafe(t.chain, from, code));
  return chunks.map((c, i): Omit<UnsignedTx, "call" | "program"> => ({
    ...unsignedType2(t.chain, { from, to, data: c.data, nonce: nonce + i, estimate: 0n, gasLimit: c.gasLimit, fees }),
    ...(safe && {
      safe: safeTxAnswer(t.chain.chainId, safe, safeTxFields({ to, data: c.data }, safe.nonce + BigInt(i))),
    }),
  }));
}

/** Call arguments as JSON: integers as decimal text (addresses are already checksummed). */
const echo = (args: BulkArg[]): unknown[] => args.map((a) => (a.type === "uint256[]" ? a.value.map(String) : a.value));
