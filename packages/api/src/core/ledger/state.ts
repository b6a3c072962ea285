import type { Queryable } from "../db/db.js";

/** A campaign as the ledger's events make it (the chain's getCampaign, plus who may act). */
export interface LedgerCampaign {
  campaignId: string;
  creator: string;
  status: "active" | "paused" | "closed";
  budget: bigint;
  available: bigint;
  outstanding: bigint;
  metadata: string;
  admins: string[];
  settlementWhitelist: string[];
  transferWhitelist: string[];
  minters: { minter: string; limit: bigint; issued: bigint; active: boolean }[];
}

interface Ev {
  event: string;
  args: Record<string, unknown>;
}

// CampaignStatus: None, Active, Paused, Closed.
const STATUS = [null, "active", "paused", "closed"] as const;

/**
 * Folds a program's PSPVault events, in chain order, into its campaigns and pSP balances. The
 * same rules as PSPVault (docs/rules.md#campaigns): expiring pSP of a closed campaign does not
 * return it to `available`.
 */
export function foldPsp(events: Ev[]) {
  const campaigns = new Map<string, LedgerCampaign & { _minters: Map<string, LedgerCampaign["minters"][number]> }>();
  const balances = new Map<string, bigint>(); // `${campaignId}:${holder}`
  const sets = {
    admins: new Map<string, Set<string>>(),
    settlementWhitelist: new Map<string, Set<string>>(),
    transferWhitelist: new Map<string, Set<string>>(),
  };
  const add = (key: string, v: bigint) => balances.set(key, (balances.get(key) ?? 0n) + v);
  const setOf = (m: Map<string, Set<string>>, id: string) => m.get(id) ?? m.set(id, new Set()).get(id)!;
  for (const { event, args } of events) {
    const id = args.campaignId as string;
    const c = campaigns.get(id);
    const amount = args.amount === undefined ? 0n : BigInt(args.amount as string);
    switch (event) {
      case "CampaignCreated":
        campaigns.set(id, {
          campaignId: id,
          creator: args.creator as string,
          status: "active",
          // The budget arrives with the CampaignFunded event the creation emits.
          budget: 0n,
          available: 0n,
          outstanding: 0n,
          metadata: args.metadata as string,
          admins: [],
          settlementWhitelist: [],
          transferWhitelist: [],
          minters: [],
          _minters: new Map(),
        });
        setOf(sets.admins, id).add(args.creator as string);
        break;
      case "CampaignFunded":
        c!.budget += amount;
        c!.available += amount;
        break;
      case "CampaignStatusUpdated":
        c!.status = STATUS[Number(args.status)] ?? c!.status;
        break;
      case "CampaignClosed":
        c!.available = 0n;
        break;
      case "PSPMinted": {
        c!.available -= amount;
        c!.outstanding += amount;
        add(`${id}:${args.to}`, amount);
        const m = c!._minters.get(args.minter as string);
        if (m) m.issued += amount;
        break;
      }
      case "PSPSettled":
        c!.outstanding -= amount;
        add(`${id}:${args.holder}`, -amount);
        break;
      case "PSPExpired":
        c!.outstanding -= amount;
        if (c!.status !== "closed") c!.available += amount;
        add(`${id}:${args.holder}`, -amount);
        break;
      case "PSPTransferred":
        add(`${id}:${args.from}`, -amount);
        add(`${id}:${args.to}`, amount);
        break;
      case "MinterConfigured": {
        const minter = args.minter as string;
        const m = c?._minters.get(minter) ?? { minter, limit: 0n, issued: 0n, active: false };
        m.limit = BigInt(args.limit as string);
        m.active = args.active as boolean;
        c?._minters.set(minter, m);
        break;
      }
      case "CampaignAdminUpdated":
      case "SettlementWhitelistUpdated":
      case "TransferWhitelistUpdated": {
        const which =
          event === "CampaignAdminUpdated"
            ? sets.admins
            : event === "SettlementWhitelistUpdated"
              ? sets.settlementWhitelist
              : sets.transferWhitelist;
        if (args.allowed) setOf(which, id).add(args.account as string);
        else setOf(which, id).delete(args.account as string);
        break;
      }
    }
  }
  const out: LedgerCampaign[] = [...campaigns.values()].map(({ _minters, ...c }) => ({
    ...c,
    admins: [...(sets.admins.get(c.campaignId) ?? [])].sort(),
    settlementWhitelist: [...(sets.settlementWhitelist.get(c.campaignId) ?? [])].sort(),
    transferWhitelist: [...(sets.transferWhitelist.get(c.campaignId) ?? [])].sort(),
    minters: [..._minters.values()].sort((a, b) => (a.minter < b.minter ? -1 : 1)),
  }));
  const holders = [...balances.entries()]
    .filter(([, v]) => v !== 0n)
    .map(([k, balance]) => {
      const [campaignId, holder] = k.split(":") as [string, string];
      return { campaignId, holder, balance };
    });
  return { campaigns: out, balances: holders };
}

/** The PSPVault events of a program, in chain order. */
export async function pspEvents(db: Queryable, programId: string): Promise<Ev[]> {
  const rows = await db.query<{ event: string; args: Record<string, unknown> | string }>(
    `SELECT event, args FROM ledger_events WHERE program_id = $1 AND contract = 'pspVault' AND event IS NOT NULL
     ORDER BY block_number, log_index`,
    [programId],
  );
  return rows.map((r) => ({ event: r.event, args: typeof r.args === "string" ? JSON.parse(r.args) : r.args }));
}

/** A stored event with where it happened (what the program-wide folds need). */
export interface PlacedEvent extends Ev {
  contract: string;
  address: string;
  blockNumber: number;
  logIndex: number;
  txHash: string;
  time: number;
}

export type RedemptionStatus = "pending" | "ready" | "finalized" | "cancelled" | "rejected";

export interface LedgerRedemption {
  requestId: string;
  requester: string;
  asset: string;
  to: string;
  amount: bigint;
  expectedBasketMode: boolean;
  status: RedemptionStatus;
  /** Seconds: when the requester may finalize, fixed by the chain when the request was made. */
  readyAt: number;
  requestedAt: { blockNumber: number; txHash: string; time: number };
  closedAt: { blockNumber: number; txHash: string; time: number } | null;
}

/**
 * Folds a program's Points and Factory events (and every contract's role events), in chain
 * order: SP balances, the mint, redeem and transfer allowlists, role holders per contract and
 * redemption requests. Each request's readyAt is what Factory.requestRedeem stored: its block
 * time plus the delay in force when it was made (a later setRedeemDelay does not move it); a
 * pending request is `ready` once the chain's clock reaches it: `now` (seconds) or the latest
 * folded event's block time, whichever is later (a dev chain mining fast runs ahead of the wall
 * clock, and the contract checks block.timestamp).
 */
export function foldProgram(events: PlacedEvent[], now: number) {
  const sp = new Map<string, bigint>();
  const lists = { mint: new Set<string>(), redeem: new Set<string>(), transfer: new Set<string>() };
  const roles = new Map<string, { contract: string; address: string; holders: Map<string, Set<string>> }>();
  const redemptions = new Map<string, LedgerRedemption>();
  let redeemDelay = 0;
  const at = (e: PlacedEvent) => ({ blockNumber: e.blockNumber, txHash: e.txHash, time: e.time });
  const close = (e: PlacedEvent, status: RedemptionStatus) => {
    const r = redemptions.get(String(e.args.requestId));
    if (r) Object.assign(r, { status, closedAt: at(e) });
  };
  for (const e of events) {
    const { args } = e;
    if (e.event === "RoleGranted" || e.event === "RoleRevoked") {
      const c = roles.get(e.address) ?? { contract: e.contract, address: e.address, holders: new Map() };
      roles.set(e.address, c);
      const holders = c.holders.get(args.role as string) ?? new Set<string>();
      c.holders.set(args.role as string, holders);
      if (e.event === "RoleGranted") holders.add(args.account as string);
      else holders.delete(args.account as string);
      continue;
    }
    if (e.contract === "points") {
      if (e.event === "Transfer") {
        const v = BigInt(args.value as string);
        sp.set(args.from as string, (sp.get(args.from as string) ?? 0n) - v);
        sp.set(args.to as string, (sp.get(args.to as string) ?? 0n) + v);
      } else if (e.event === "TransferWhitelistUpdated") {
        if (args.whitelisted) lists.transfer.add(args.account as string);
        else lists.transfer.delete(args.account as string);
      }
      continue;
    }
    if (e.contract !== "factory") continue;
    switch (e.event) {
      case "MintWhitelistUpdated":
      case "RedeemWhitelistUpdated": {
        const list = e.event === "MintWhitelistUpdated" ? lists.mint : lists.redeem;
        if (args.whitelisted) list.add(args.account as string);
        else list.delete(args.account as string);
        break;
      }
      case "RedeemDelayUpdated":
        redeemDelay = Number(args.delay);
        break;
      case "RedeemRequested":
        redemptions.set(String(args.requestId), {
          requestId: String(args.requestId),
          requester: args.requester as string,
          asset: args.asset as string,
          to: args.to as string,
          amount: BigInt(args.amount as string),
          expectedBasketMode: args.expectedBasketMode as boolean,
          status: "pending",
          readyAt: e.time + redeemDelay,
          requestedAt: at(e),
          closedAt: null,
        });
        break;
      case "RedeemFinalized":
        close(e, "finalized");
        break;
      case "RedeemCancelled":
        close(e, "cancelled");
        break;
      case "RedeemRejected":
        close(e, "rejected");
        break;
    }
  }
  const clock = events.reduce((t, e) => Math.max(t, e.time), now);
  for (const r of redemptions.values()) {
    if (r.status === "pending" && clock >= r.readyAt) r.status = "ready";
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    spHolders: [...sp.entries()]
      .filter(([holder, balance]) => balance > 0n && holder !== "0x0000000000000000000000000000000000000000")
      .map(([holder, balance]) => ({ holder, balance })),
    allowlists: { mint: sorted(lists.mint), redeem: sorted(lists.redeem), transfer: sorted(lists.transfer) },
    roles: [...roles.values()].map((c) => ({
      contract: c.contract,
      address: c.address,
      roles: [...c.holders.entries()]
        .map(([role, holders]) => ({ role, holders: sorted(holders) }))
        .filter((r) => r.holders.length > 0),
    })),
    redemptions: [...redemptions.values()],
    redeemDelay,
  };
}
