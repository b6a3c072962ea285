import type { BrowserProvider } from "ethers";
import type { PointsClient } from "@points/sdk";
import { SP_DECIMALS, fmt } from "../units";
import { PENDING_SYMBOL, tokenAmount, tokenWord } from "../tokenSymbol";
import { accessChange, type Blocker, type Check } from "./checks";
import { isCampaignAdmin, isSettlementAllowed, tokenBalance } from "./chainReads";
import { pausedBlocker } from "./paused";
import { isZeroAddress } from "../addressCheck";

type Provider = () => BrowserProvider | null;
interface Asset {
  asset: string;
  symbol: string;
  decimals: number;
}

const amount = (v: bigint | string, decimals: number, symbol: string) => `${fmt(v, decimals)} ${symbol}`;
const pending = (v: bigint | string) => tokenAmount(v, SP_DECIMALS, PENDING_SYMBOL);
const manager = async (client: PointsClient, contract: "factory" | "pspVault", from: string) =>
  (await client.roles.check(contract, "MANAGER_ROLE", from)).hasRole;

/**
 * SP the wallet must hold for an action that takes `needed` SP from it (an approval would come
 * first); `symbol` is the token's own (src/dashboard/tokenSymbol.ts), null while not known.
 */
async function spHeld(
  client: PointsClient,
  from: string,
  needed: string,
  doing: string,
  symbol: string | null,
): Promise<Blocker | null> {
  const sp = (v: bigint | string) => tokenAmount(v, SP_DECIMALS, symbol);
  const held = BigInt((await client.read.balance(from)).balance);
  if (held >= BigInt(needed)) return null;
  return {
    message: `Your wallet holds ${sp(held)}; ${doing} takes ${sp(needed)} from it. Mint ${tokenWord(symbol)} on the Overview page first, or use at most ${sp(held)}.`,
  };
}

/**
 * Mint SP: the collateral in the wallet, the mint allowlist, then, while the program restricts
 * transfers (`restricted`), the receiver's transfer allowlist.
 */
export const mintSpCheck =
  (client: PointsClient, provider: Provider, asset: Asset, restricted: () => Promise<boolean>): Check =>
  async (v, from) => {
    const p = provider();
    if (p) {
      const held = await tokenBalance(p, asset.asset, from);
      if (held < BigInt(v.amount)) {
        return {
          message: `Your wallet holds ${amount(held, asset.decimals, asset.symbol)}; minting with ${amount(v.amount, asset.decimals, asset.symbol)} needs at least that much. Get ${asset.symbol} first, or mint with less.`,
        };
      }
    }
    const status = await client.factory.whitelistStatus(from);
    if (!status.mint) {
      const canFix = await manager(client, "factory", from);
      return {
        message: `Your wallet ${from} is not on the mint allowlist, so the mint would fail. ${canFix ? "You are a manager: add it first, then mint." : "Ask a manager of the program to add it."}`,
        fix: canFix ? accessChange("mint", from, () => client.factory.addToMintWhitelist(from, { from })) : undefined,
      };
    }
    // While transfers are restricted a mint needs its receiver on the Points transfer allowlist
    // (docs/rules.md#points): checked before the collateral approval, which would otherwise be
    // signed for a mint that reverts. Unrestricted, any receiver gets SP.
    if (!(await restricted())) return null;
    const receiver = v.receiver ? String(v.receiver) : from;
    const self = receiver.toLowerCase() === from.toLowerCase();
    if (self ? status.transfer : await client.points.isTransferWhitelisted(receiver)) return null;
    const canFix = (await client.roles.check("points", "DEFAULT_ADMIN_ROLE", from)).hasRole;
    const who = self ? `Your wallet ${from}` : `The receiver ${receiver}`;
    return {
      message: `${who} is not on the transfer allowlist, and a mint needs its receiver on it, so the mint would fail. ${canFix ? "You are the token's admin: add it first, then mint." : "Ask the token's admin to add it."}`,
      fix: canFix
        ? accessChange("transfer", receiver, () => client.points.addToTransferWhitelist(receiver, { from }))
        : undefined,
    };
  };

/** Redeem: the SP in the wallet, then the redeem allowlist. */
export const redeemCheck =
  (client: PointsClient, symbol: string | null): Check =>
  async (v, from) => {
    const short = await spHeld(client, from, v.amount, "this redemption", symbol);
    if (short) return short;
    if ((await client.factory.whitelistStatus(from)).redeem) return null;
    const canFix = await manager(client, "factory", from);
    return {
      message: `Your wallet ${from} is not on the redeem allowlist, so the request would fail. ${canFix ? "You are a manager: add it first, then request." : "Ask a manager of the program to add it."}`,
      fix: canFix ? accessChange("redeem", from, () => client.factory.addToRedeemWhitelist(from, { from })) : undefined,
    };
  };

/**
 * Fund a campaign or create one: the SP in the wallet. A manager's funding draws on the vault's
 * unallocated SP first (docs/rules.md#pspvault), which no route reads: the contract decides then.
 */
export const spCheck =
  (client: PointsClient, field: string, doing: string, symbol: string | null): Check =>
  async (v, from) =>
    (await manager(client, "pspVault", from)) ? null : spHeld(client, from, v[field], doing, symbol);

/**
 * Fund a campaign: whatever the vault's unallocated SP does not cover (it covers only a
 * manager's funding, `unallocated`: null when not read) comes from the wallet, an SP transfer the
 * Points token refuses while paused (`pointsPaused`: null when not known; the contract decides).
 */
export const fundCheck =
  (
    client: PointsClient,
    pointsPaused: () => boolean | null,
    unallocated: () => Promise<bigint | null>,
    symbol: string | null,
  ): Check =>
  async (v, from) => {
    const isManager = await manager(client, "pspVault", from);
    const covered = isManager ? await unallocated() : 0n;
    if (covered === null || covered >= BigInt(v.amount)) return null;
    const stopped = pausedBlocker({ points: pointsPaused() ?? undefined }, ["points"], "this funding");
    return stopped ?? (isManager ? null : spHeld(client, from, v.amount, "funding", symbol));
  };

/** Where closing sends a campaign's `available` SP, as PSPVault's closeCampaign does. */
export interface Closing {
  available: bigint;
  funder: string;
  programFunded: bigint;
  treasury: string;
}

/**
 * Whether closing moves SP: program money goes back first (to the treasury, or stays in the
 * vault without one), the rest to the funder; with no funder all of it is program money.
 */
export function closeMovesSp(c: Closing): boolean {
  const toProgram = isZeroAddress(c.funder) || c.available < c.programFunded ? c.available : c.programFunded;
  return c.available !== toProgram || (toProgram !== 0n && !isZeroAddress(c.treasury));
}

/** Close a campaign: stopped while the Points token is paused when closing would move SP (`closing`: null when not read). */
export const closeCheck =
  (pointsPaused: () => boolean | null, closing: () => Promise<Closing | null>): Check =>
  async () => {
    if (!pointsPaused()) return null;
    const c = await closing();
    return c && closeMovesSp(c) ? pausedBlocker({ points: true }, ["points"], "closing this campaign") : null;
  };

/** Settle: the holder's pSP, then the receiver on the campaign's settlement allowlist. */
export const settleCheck =
  (client: PointsClient, provider: Provider, vault: string, campaignId: string): Check =>
  async (v, from) => {
    const held = BigInt((await client.vault.balanceOf(campaignId, v.holder)).balance);
    if (held < BigInt(v.amount)) {
      return {
        message: `${v.holder} holds ${pending(held)} here; settling ${pending(v.amount)} needs at least that much.`,
      };
    }
    const p = provider();
    if (!p || (await isSettlementAllowed(p, vault, campaignId, v.receiver))) return null;
    const canFix = (await isCampaignAdmin(p, vault, campaignId, from)) || (await manager(client, "pspVault", from));
    return {
      message: `${v.receiver} is not on this campaign's settlement allowlist, so the settlement would fail. ${canFix ? "You administer this campaign: add it first, then settle." : "Ask an admin of this campaign to add it."}`,
      fix: canFix
        ? accessChange("settlement", v.receiver, () =>
            client.vault.updateSettlementWhitelist(campaignId, v.receiver, true, { from }),
          )
        : undefined,
    };
  };
