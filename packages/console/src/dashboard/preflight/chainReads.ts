import { Interface } from "ethers";
import type { BrowserProvider } from "ethers";

/** The few views the console reads straight from the chain (the API has no route for them). */
const ERC20 = new Interface([
  "function balanceOf(address) view returns (uint256)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
]);
const VAULT = new Interface([
  "function isSettlementWhitelisted(bytes32 campaignId, address account) view returns (bool)",
  "function isCampaignAdmin(bytes32 campaignId, address account) view returns (bool)",
  "function unallocated() view returns (uint256)",
  "function treasury() view returns (address)",
  "function fundingOf(bytes32 campaignId) view returns (address funder, uint256 programFunded)",
]);

async function view<T>(provider: BrowserProvider, iface: Interface, to: string, fn: string, args: unknown[]) {
  const out = await provider.call({ to, data: iface.encodeFunctionData(fn, args) });
  return iface.decodeFunctionResult(fn, out)[0] as T;
}

export const tokenBalance = (p: BrowserProvider, token: string, owner: string) =>
  view<bigint>(p, ERC20, token, "balanceOf", [owner]);

/** What a token says about itself: its own symbol and decimals. */
export async function tokenFacts(p: BrowserProvider, token: string) {
  const [symbol, decimals] = await Promise.all([
    view<string>(p, ERC20, token, "symbol", []),
    view<bigint>(p, ERC20, token, "decimals", []),
  ]);
  return { symbol, decimals: Number(decimals) };
}

export const isSettlementAllowed = (p: BrowserProvider, vault: string, campaignId: string, account: string) =>
  view<boolean>(p, VAULT, vault, "isSettlementWhitelisted", [campaignId, account]);

export const isCampaignAdmin = (p: BrowserProvider, vault: string, campaignId: string, account: string) =>
  view<boolean>(p, VAULT, vault, "isCampaignAdmin", [campaignId, account]);

/** SP in the Campaign vault that no campaign holds: a manager's funding draws on it first. */
export const vaultUnallocated = (p: BrowserProvider, vault: string) => view<bigint>(p, VAULT, vault, "unallocated", []);

/** Who funded a campaign and how much of its budget is program money, and the vault's treasury: where closing sends SP. */
export async function closingParties(p: BrowserProvider, vault: string, campaignId: string) {
  const out = await p.call({ to: vault, data: VAULT.encodeFunctionData("fundingOf", [campaignId]) });
  const [funder, programFunded] = VAULT.decodeFunctionResult("fundingOf", out) as unknown as [string, bigint];
  return { funder, programFunded, treasury: await view<string>(p, VAULT, vault, "treasury", []) };
}
