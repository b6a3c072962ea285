import { etherscanClient, sourcifyClient, type ExplorerClient } from "@points/deployer";
import type { ChainConfig, Config } from "../config/env.js";
import type { ExplorerName } from "./store.js";

/** The explorers a chain verifies on (docs/deployment.md#source-verification); none: verification is skipped. */
export function explorerNames(chain: ChainConfig): ExplorerName[] {
  const v = chain.sourceVerify;
  const names: ExplorerName[] = [];
  if (v?.etherscanApiUrl && chain.explorerUrl) names.push("etherscan");
  if (v?.sourcifyApiUrl) names.push("sourcify");
  return names;
}

/** The chain's explorer clients by name. The key stays inside the Etherscan client's requests. */
export function explorerClients(config: Config, chain: ChainConfig): Map<ExplorerName, ExplorerClient> {
  const v = chain.sourceVerify;
  const clients = new Map<ExplorerName, ExplorerClient>();
  const key = config.explorerKey();
  const common = { pollMs: config.verify.pollMs, timeoutMs: Math.max(config.rpcTimeoutMs, 10_000) };
  if (v?.etherscanApiUrl && chain.explorerUrl && key) {
    clients.set(
      "etherscan",
      etherscanClient({ apiUrl: v.etherscanApiUrl, apiKey: key, browserUrl: chain.explorerUrl, ...common }),
    );
  }
  if (v?.sourcifyApiUrl) {
    clients.set("sourcify", sourcifyClient({ apiUrl: v.sourcifyApiUrl, browserUrl: v.sourcifyBrowserUrl, ...common }));
  }
  return clients;
}

/** An explorer's text without the key, should an explorer ever echo it. */
export function redact(text: string, config: Config): string {
  const key = config.explorerKey();
  return key ? text.split(key).join("[redacted]") : text;
}
