/** Asks `url` for its chain id; undefined when nothing answers within `timeoutMs`. */
export async function rpcChainId(url: string, timeoutMs = 2000): Promise<bigint | undefined> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { result?: string };
    return body.result === undefined ? undefined : BigInt(body.result);
  } catch {
    return undefined;
  }
}
