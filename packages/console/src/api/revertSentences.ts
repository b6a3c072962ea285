import { formatAmount } from "../components/format/amount";
import { readyIn } from "../dashboard/readyIn";

type Args = Record<string, unknown>;
const sp = (v: unknown) => `${formatAmount(String(v), 18)} SP`;
const text = (v: unknown) => String(v);

/**
 * A decoded revert as a sentence that says what to do, by the contract error's name and its
 * arguments as the API names them (see docs/errors.md). Amounts of the campaign vault are SP
 * (18 decimals). Errors not listed keep the API's message; the raw error stays one click away.
 */
const SENTENCES: Record<string, (a: Args) => string> = {
  InsufficientBudget: (a) =>
    `This campaign has ${sp(a.available)} left; ${sp(a.amount)} would exceed it. Fund the campaign or issue at most ${sp(a.available)}.`,
  MinterLimitExceeded: (a) => {
    const left = BigInt(String(a.limit)) - BigInt(String(a.issued));
    const l = sp(left > 0n ? left : 0n);
    return `This minter has ${l} left to issue (limit ${sp(a.limit)}, ${sp(a.issued)} issued); ${sp(a.amount)} would exceed it. Raise its limit or issue at most ${l}.`;
  },
  CampaignNotActive: () => "This campaign is not active (paused or closed). Resume it first, or use another campaign.",
  SettlementReceiverNotWhitelisted: (a) =>
    `${text(a.receiver)} is not on this campaign's settlement allowlist. Add it under "Settlement allowlist", then settle again.`,
  TransferReceiverNotWhitelisted: (a) =>
    `${text(a.to)} is not on this campaign's pSP transfer allowlist. Add it under "pSP transfer allowlist", then try again.`,
  NotMintWhitelisted: (a) =>
    `${text(a.account)} is not on the mint allowlist. Add it on the Allowlists page, then mint again.`,
  NotRedeemWhitelisted: (a) =>
    `${text(a.account)} is not on the redeem allowlist. Add it on the Allowlists page, then redeem again.`,
  RedeemDelayNotElapsed: (a) =>
    `Redemption #${text(a.requestId)} is not ready yet: ${readyIn(new Date(Number(a.readyAt) * 1000).toISOString(), Date.now())}. Finalize it then, or ask an executor, who may finalize at once.`,
  TransferNotWhitelisted: (a) =>
    `${text(a.account)} is not on the transfer allowlist while transfers are restricted. Add it on the Allowlists page first.`,
};

/** The sentence for a decoded revert, or undefined when the console has none for it. */
export function revertSentence(name: string, args: unknown): string | undefined {
  const f = SENTENCES[name];
  if (!f || !args || typeof args !== "object" || Array.isArray(args)) return undefined;
  try {
    return f(args as Args);
  } catch {
    return undefined;
  }
}
