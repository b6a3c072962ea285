import { DeployerError, type SafeTransaction } from "@points/deployer";
import { createClient, PointsApiError } from "@points/sdk";

const NO_REFUND = "0x0000000000000000000000000000000000000000";

/**
 * Stores `t` as a proposal in the API (the SDK's `safe.propose`, with an API key) and returns its
 * id: owners then sign it there and any of them or a relayer executes it.
 */
export async function proposeToApi(t: SafeTransaction, api: { url: string; key: string }): Promise<string> {
  const { tx } = t;
  // The API stores Safe transactions without gas refund, which is how safeTransaction builds them.
  if (tx.baseGas !== "0" || tx.gasPrice !== "0" || tx.gasToken !== NO_REFUND || tx.refundReceiver !== NO_REFUND)
    throw new DeployerError("INVALID_CONFIG", "the API stores only Safe transactions without gas refund");
  if (tx.operation !== 0 && tx.operation !== 1)
    throw new DeployerError("INVALID_CONFIG", `Safe operation ${tx.operation} is neither a call nor a delegatecall`);
  const refund = { baseGas: "0", gasPrice: "0", gasToken: NO_REFUND, refundReceiver: NO_REFUND } as const;
  const client = createClient({ baseUrl: api.url, apiKey: api.key });
  try {
    const proposal = await client.safe.propose({
      chainId: Number(t.chainId),
      safe: t.safe,
      tx: { ...tx, ...refund, operation: tx.operation },
    });
    return proposal.id;
  } catch (e) {
    if (!(e instanceof PointsApiError)) throw e;
    throw new DeployerError("INVALID_CONFIG", `the API refused the proposal (${e.code}: ${e.message})`);
  }
}
