import { PENDING_SYMBOL } from "../tokenSymbol";

/** A ledger event as the console shows it: what happened, in words, and its SP amount. */
export interface EventLine {
  words: string;
  /** The SP (or pSP) amount in smallest units, when the event moves one. */
  amount: string | null;
  /** pSP for the campaign vault's holder events, else the token's own symbol (null while not known). */
  symbol: string | null;
  /** Whose points moved: the pSP holder (issued to, settled or expired from, sent by) or the redeemer. */
  holder: string | null;
  /** The delegated minter or issuer that issued the pSP, or the minter configured. */
  minter: string | null;
}

/** The argument naming the holder, per event. */
const HOLDER: Record<string, string> = {
  PSPMinted: "to",
  PSPSettled: "holder",
  PSPExpired: "holder",
  PSPTransferred: "from",
  RedeemRequested: "requester",
};

/** The argument naming the minter, per event. */
const MINTER: Record<string, string> = { PSPMinted: "minter", MinterConfigured: "minter" };

const addressArg = (args: Record<string, unknown>, key: string | undefined) => {
  const v = key === undefined ? undefined : args[key];
  return typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) ? v : null;
};

/** Event names in words ("pSP issued"), with the on-chain name kept behind a disclosure. */
const WORDS: Record<string, string> = {
  PSPMinted: "pSP issued",
  PSPSettled: "pSP settled",
  PSPExpired: "pSP expired",
  PSPTransferred: "pSP transferred",
  Transfer: "SP transfer",
  Minted: "SP minted",
  RedeemRequested: "Redemption requested",
  RedeemCancelled: "Redemption cancelled",
  RedeemRejected: "Redemption rejected",
  RedeemFinalized: "Redemption finalized",
  CampaignCreated: "Campaign created",
  CampaignFunded: "Campaign funded",
  CampaignClosed: "Campaign closed",
  CampaignStatusUpdated: "Campaign status changed",
  MinterConfigured: "Minter configured",
  CampaignAdminUpdated: "Campaign admin changed",
  SettlementWhitelistUpdated: "Settlement allowlist changed",
  TransferWhitelistUpdated: "Transfer allowlist changed",
  MintWhitelistUpdated: "Mint allowlist changed",
  RedeemWhitelistUpdated: "Redeem allowlist changed",
  RoleGranted: "Role granted",
  RoleRevoked: "Role revoked",
};

/**
 * The argument holding the event's SP amount (collateral amounts, in the asset's decimals, are
 * left out; a creation's budget shows on the CampaignFunded event the vault emits with it).
 */
const SP_AMOUNT: Record<string, string> = {
  PSPMinted: "amount",
  PSPSettled: "amount",
  PSPExpired: "amount",
  PSPTransferred: "amount",
  Transfer: "value",
  Minted: "spMinted",
  RedeemRequested: "amount",
  RedeemFinalized: "spBurned",
  CampaignFunded: "amount",
  CampaignClosed: "returned",
};

/** `token`: the program's token symbol (src/dashboard/tokenSymbol.ts), null while not known. */
export function eventLine(event: string | null, args: Record<string, unknown>, token: string | null): EventLine {
  if (event === null) return { words: "Unknown event", amount: null, symbol: token, holder: null, minter: null };
  const key = SP_AMOUNT[event];
  const raw = key === undefined ? undefined : args[key];
  return {
    words: WORDS[event] ?? event,
    amount: typeof raw === "string" && /^\d+$/.test(raw) ? raw : null,
    symbol: event.startsWith("PSP") ? PENDING_SYMBOL : token,
    holder: addressArg(args, HOLDER[event]),
    minter: addressArg(args, MINTER[event]),
  };
}

/** Event names a webhook may subscribe to, in the order the form lists them. */
export const WEBHOOK_EVENTS = Object.keys(WORDS);
export const eventWords = (event: string) => WORDS[event] ?? event;
