import { Contract, Interface, type BrowserProvider } from "ethers";
import { roleNameOf } from "@points/contracts/program";
import type { ContractName } from "@points/schema";
import type { ProgramView } from "./context";

// Reads the API has no route for (who holds a role, per-contract pause, campaign and minter
// lists) come from the chain's events, through the connected wallet's own RPC. Only event and
// view signatures are named here: every write still goes through the API.
const events = new Interface([
  "event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)",
  "event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)",
  "event CampaignCreated(bytes32 indexed campaignId, address indexed creator, uint256 spBudget, string metadata)",
  "event MinterConfigured(bytes32 indexed campaignId, address indexed minter, uint256 limit, bool active)",
]);

export const programContracts = (p: ProgramView): [ContractName, string][] =>
  (
    [
      ["factory", p.factory],
      ["points", p.points],
      ["collateralVault", p.collateralVault],
      ["pspVault", p.pspVault],
      ["oracle", p.oracle],
    ] as [ContractName, string | null][]
  ).filter((e): e is [ContractName, string] => !!e[1]);

const fromBlock = (p: ProgramView) => p.blockNumber ?? 0;

/** Current holders of every role on every program contract, replayed from grant/revoke events. */
export async function roleHolders(provider: BrowserProvider, p: ProgramView) {
  const contracts = programContracts(p);
  const logs = await provider.getLogs({
    address: contracts.map(([, a]) => a),
    topics: [[events.getEvent("RoleGranted")!.topicHash, events.getEvent("RoleRevoked")!.topicHash]],
    fromBlock: fromBlock(p),
  });
  const holders = new Map<string, Set<string>>(); // "contract|role" -> accounts
  for (const log of logs) {
    const ev = events.parseLog(log);
    if (!ev) continue;
    const name = contracts.find(([, a]) => a.toLowerCase() === log.address.toLowerCase())![0];
    const key = `${name}|${roleNameOf(ev.args.role) ?? ev.args.role}`;
    const set = holders.get(key) ?? new Set<string>();
    if (ev.name === "RoleGranted") set.add(ev.args.account);
    else set.delete(ev.args.account);
    holders.set(key, set);
  }
  return [...holders.entries()]
    .filter(([, s]) => s.size > 0)
    .map(([key, s]) => {
      const [contract, role] = key.split("|");
      return { contract, role, accounts: [...s] };
    });
}

/** `paused()` of each program contract (every one is Pausable). */
export async function pausedStates(provider: BrowserProvider, p: ProgramView) {
  const abi = ["function paused() view returns (bool)"];
  return Object.fromEntries(
    await Promise.all(
      programContracts(p).map(
        async ([n, a]) => [n, (await new Contract(a, abi, provider).paused()) as boolean] as const,
      ),
    ),
  ) as Partial<Record<ContractName, boolean>>;
}

/** Campaign ids created on the vault, and the delegated minters configured per campaign. */
export async function campaignEvents(provider: BrowserProvider, p: ProgramView) {
  const logs = await provider.getLogs({
    address: p.pspVault,
    topics: [[events.getEvent("CampaignCreated")!.topicHash, events.getEvent("MinterConfigured")!.topicHash]],
    fromBlock: fromBlock(p),
  });
  const campaigns: string[] = [];
  const metadata = new Map<string, string>();
  const minters = new Map<string, Set<string>>();
  for (const log of logs) {
    const ev = events.parseLog(log);
    if (ev?.name === "CampaignCreated") {
      campaigns.push(ev.args.campaignId);
      metadata.set(ev.args.campaignId, ev.args.metadata);
    }
    if (ev?.name === "MinterConfigured") {
      const set = minters.get(ev.args.campaignId) ?? new Set<string>();
      set.add(ev.args.minter);
      minters.set(ev.args.campaignId, set);
    }
  }
  return { campaigns, minters, metadata };
}
