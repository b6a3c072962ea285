import { keccak256, type JsonRpcProvider } from "ethers";
import type { TxSigner } from "@points/signers";
import type { Fees } from "./fees.js";
import type { InFlight } from "./inflight.js";
import { classifySendError, rpcAnswer, SEND_ERROR_ACTIONS } from "@points/contracts/program/nodeErrors";
import { EngineError } from "./errors.js";

/**
 * Sends a signed transaction of `from`; throws only when the node refused it for good. A refusal is classified by
 * one table of every node's texts (docs/architecture.md#nodes-and-networks): known already, a nonce that moved and a
 * rate limit are left to the engine's next look at the chain; a price refusal (under the base fee, an underpriced
 * replacement) answers "reprice"; the rest fail with a named code. No JSON-RPC answer at all (timeout, 429, 5xx,
 * connection) is "sent": it may have arrived, and the next look sends it again if not.
 */
export async function sendRaw(provider: JsonRpcProvider, raw: string, from: string): Promise<"sent" | "reprice"> {
  try {
    await provider.send("eth_sendRawTransaction", [raw]);
    return "sent";
  } catch (err) {
    const answer = rpcAnswer(err);
    if (!answer) return "sent";
    const kind = classifySendError(err);
    const next = SEND_ERROR_ACTIONS[kind];
    if (next.action === "reprice") return "reprice";
    if (next.action !== "fail") return "sent";
    if (next.code === "INSUFFICIENT_FUNDS")
      throw new EngineError("INSUFFICIENT_FUNDS", `the executor ${from} cannot pay for gas`, err);
    throw new EngineError(
      "TX_REJECTED",
      `the node refused the transaction (${kind}): ${answer.message.slice(0, 300)}`,
      err,
    );
  }
}

/** Signs an in-flight entry's request as `from`'s type-2 transaction for its nonce at `fees`. */
export async function signType2(
  wallet: TxSigner,
  e: InFlight,
  fees: Fees,
  from: string,
  chainId: number,
): Promise<{ raw: string; hash: string }> {
  const raw = await wallet.signTransaction({
    ...e.request,
    from,
    nonce: e.nonce,
    chainId,
    type: 2,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    gasPrice: undefined,
  });
  return { raw, hash: keccak256(raw) };
}
