/**
 * Clients of block explorers' source verification (docs/deployment.md#source-verification):
 * the Etherscan v2 API (one endpoint for every chain it serves, `chainid` in the query, also
 * spoken by Blockscout and other Etherscan-compatible explorers) and Sourcify's v2 API. Written
 * against their documented HTTP APIs with `fetch`: hardhat-verify's library parts need a Hardhat
 * runtime, which the API's worker does not have. API keys travel in the query string only and
 * are never part of a result or an error message.
 */

/** What one explorer is asked to verify. */
export interface SourceSubmission {
  chainId: bigint;
  address: string;
  /** `sourceName:ContractName` inside `input`. */
  contractIdentifier: string;
  /** The solc standard-JSON input, pruned to the contract's sources. */
  input: unknown;
  /** `v0.8.28+commit.7893614a` */
  compilerVersion: string;
  /** ABI-encoded constructor arguments, hex without 0x ("" for none). */
  constructorArgs: string;
}

/** verified: the explorer shows the source; failed: it refused it; unreachable: ask again later. */
export interface SourceResult {
  status: "verified" | "failed" | "unreachable";
  /** Where people see the verified source. */
  url?: string;
  message?: string;
}

export interface ExplorerClient {
  /** "etherscan" or "sourcify": names the explorer in results. */
  readonly name: string;
  verify(s: SourceSubmission): Promise<SourceResult>;
}

export interface EtherscanOptions {
  /** The API endpoint, e.g. https://api.etherscan.io/v2/api */
  apiUrl: string;
  apiKey: string;
  /** The explorer's web site, for links (https://basescan.org). */
  browserUrl: string;
  /** Between status checks (default 2 s), and how many checks at most (default 30). */
  pollMs?: number;
  polls?: number;
  /** Per HTTP request (default 20 s). */
  timeoutMs?: number;
}

type Fetch = typeof fetch;

/** A transport failure, a 429 or a 5xx: the explorer is not answering now. */
class Unreachable extends Error {}

async function call(fetchFn: Fetch, url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new Unreachable("the explorer did not answer");
  }
  if (res.status === 429 || res.status >= 500) throw new Unreachable(`the explorer answered HTTP ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new Unreachable(`the explorer answered HTTP ${res.status} without JSON`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const link = (browserUrl: string, address: string) => `${browserUrl.replace(/\/$/, "")}/address/${address}#code`;

export function etherscanClient(opts: EtherscanOptions, fetchFn: Fetch = fetch): ExplorerClient {
  const pollMs = opts.pollMs ?? 2000;
  const polls = opts.polls ?? 30;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const url = (chainId: bigint, q: Record<string, string>) =>
    `${opts.apiUrl}?${new URLSearchParams({ chainid: chainId.toString(), ...q, apikey: opts.apiKey })}`;
  return {
    name: "etherscan",
    async verify(s) {
      const verified = { status: "verified" as const, url: link(opts.browserUrl, s.address) };
      try {
        const form = new URLSearchParams({
          codeformat: "solidity-standard-json-input",
          sourceCode: JSON.stringify(s.input),
          contractaddress: s.address,
          contractname: s.contractIdentifier,
          compilerversion: s.compilerVersion,
          // The API's own spelling.
          constructorArguements: s.constructorArgs,
        });
        const submitted = (await call(
          fetchFn,
          url(s.chainId, { module: "contract", action: "verifysourcecode" }),
          { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } },
          timeoutMs,
        )) as { status?: string; result?: string };
        const result = String(submitted.result ?? "");
        if (/already verified/i.test(result)) return verified;
        if (submitted.status !== "1") return { status: "failed", message: result.slice(0, 300) };
        for (let i = 0; i < polls; i++) {
          const check = (await call(
            fetchFn,
            url(s.chainId, { module: "contract", action: "checkverifystatus", guid: result }),
            {},
            timeoutMs,
          )) as { status?: string; result?: string };
          const text = String(check.result ?? "");
          if (/pass|already verified/i.test(text)) return verified;
          if (!/pending|queue/i.test(text)) return { status: "failed", message: text.slice(0, 300) };
          await sleep(pollMs);
        }
        return { status: "unreachable", message: "the explorer kept the verification pending" };
      } catch (e) {
        if (e instanceof Unreachable) return { status: "unreachable", message: e.message };
        throw e;
      }
    },
  };
}

export interface SourcifyOptions {
  /** The server, e.g. https://sourcify.dev/server */
  apiUrl: string;
  /** Where people see a verified contract (https://repo.sourcify.dev). */
  browserUrl: string;
  pollMs?: number;
  polls?: number;
  timeoutMs?: number;
}

export function sourcifyClient(opts: SourcifyOptions, fetchFn: Fetch = fetch): ExplorerClient {
  const pollMs = opts.pollMs ?? 2000;
  const polls = opts.polls ?? 30;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const base = opts.apiUrl.replace(/\/$/, "");
  return {
    name: "sourcify",
    async verify(s) {
      const verified = {
        status: "verified" as const,
        url: `${opts.browserUrl.replace(/\/$/, "")}/${s.chainId}/${s.address}`,
      };
      try {
        const job = (await call(
          fetchFn,
          `${base}/v2/verify/${s.chainId}/${s.address}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              stdJsonInput: s.input,
              compilerVersion: s.compilerVersion.replace(/^v/, ""),
              contractIdentifier: s.contractIdentifier,
            }),
          },
          timeoutMs,
        )) as { verificationId?: string; customCode?: string; message?: string };
        if (job.customCode === "already_verified") return verified;
        if (!job.verificationId) return { status: "failed", message: String(job.message ?? "refused").slice(0, 300) };
        for (let i = 0; i < polls; i++) {
          const st = (await call(fetchFn, `${base}/v2/verify/${job.verificationId}`, {}, timeoutMs)) as {
            isJobCompleted?: boolean;
            contract?: { match?: string | null };
            error?: { message?: string };
          };
          if (st.isJobCompleted) {
            return st.contract?.match
              ? verified
              : { status: "failed", message: String(st.error?.message ?? "no match").slice(0, 300) };
          }
          await sleep(pollMs);
        }
        return { status: "unreachable", message: "Sourcify kept the verification pending" };
      } catch (e) {
        if (e instanceof Unreachable) return { status: "unreachable", message: e.message };
        throw e;
      }
    },
  };
}
