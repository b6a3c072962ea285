import { getAddress } from "ethers";
import { roleNameOf } from "@points/contracts/program";
import { formatAmount } from "../components/format/amount";
import { readyIn } from "../dashboard/readyIn";

type Args = Record<string, unknown>;
/**
 * The program token's own symbol while revertSentence writes one sentence (src/dashboard/tokenSymbol.ts);
 * null: amounts without a symbol rather than a guessed one.
 */
let symbol: string | null = null;
/** An amount of the token; an argument the API did not send shows as "?" rather than hiding the sentence. */
const sp = (v: unknown) => (symbol === null ? units(v) : `${units(v)} ${symbol}`);
const units = (v: unknown) => {
  try {
    return formatAmount(String(v), 18);
  } catch {
    return "?";
  }
};
const text = (v: unknown) => String(v);
/** ERC-20 errors come from the points token or from a collateral token, whose decimals the error does not carry. */
const tok = (v: unknown, contract?: string) => (contract === "points" ? sp(v) : `${text(v)} (smallest units)`);
/** Addresses checksummed, so they compare by eye with the ones on the other pages. */
const addr = (v: unknown) => {
  try {
    return getAddress(String(v));
  } catch {
    return String(v);
  }
};
const role = (v: unknown) => roleNameOf(String(v)) ?? String(v);
const CAMPAIGN_STATUS = ["unknown", "active", "paused", "closed"];
const REQUEST_STATUS = ["unknown", "pending", "finalized", "cancelled", "rejected"];
const status = (names: string[], v: unknown) => names[Number(v)] ?? `status ${text(v)}`;
/** A unix time (seconds) as local time with how long until it. */
const when = (v: unknown) => {
  const at = new Date(Number(v) * 1000);
  if (Number.isNaN(at.getTime())) return "a later time";
  const left = Math.ceil((at.getTime() - Date.now()) / 60_000);
  return `${at.toLocaleString()}${left > 0 ? ` (in ${left} min)` : ""}`;
};

/**
 * Every custom error of the program contracts as a sentence that says what happened and what to
 * do, by the error's name and its arguments as the API names them. The cause and fix follow
 * packages/contracts/docs/errors.md in plain words; a test checks every error of the ABIs has one.
 * Amounts are the token's (18 decimals), in its own symbol. The raw error stays one click away.
 */
const SENTENCES: Record<string, (a: Args, contract?: string) => string> = {
  // Solidity's own, which the API decodes too.
  Error: (a) => `The contract refused: ${text(a.message)}.`,
  Panic: (a) => `The contract hit an internal error (panic code ${text(a.code)}). Report it with the details below.`,
  // Shared (OpenZeppelin)
  AccessControlBadConfirmation: () => "A role can only be renounced by the account holding it. Sign with that account.",
  AccessControlEnforcedDefaultAdminDelay: (a) =>
    `The admin handover's waiting time has not passed. Accept it after ${when(a.schedule)}.`,
  AccessControlEnforcedDefaultAdminRules: () =>
    "The admin role cannot be granted or revoked directly. Use the admin handover: the current admin starts it, the new admin accepts it.",
  AccessControlInvalidDefaultAdmin: (a) =>
    `${addr(a.defaultAdmin)} cannot become the admin. Only the account named in the pending handover may accept it.`,
  AccessControlUnauthorizedAccount: (a) =>
    `${addr(a.account)} does not hold ${role(a.neededRole)}. Have an admin grant it, or sign with an account that holds it.`,
  AddressEmptyCode: (a) => `${addr(a.target)} is not a contract. Use the address of a deployed contract.`,
  ECDSAInvalidSignature: () => "The signature is not valid. Sign again.",
  ECDSAInvalidSignatureLength: () => "The signature has the wrong length. Sign again.",
  ECDSAInvalidSignatureS: () => "The signature is malformed. Sign again.",
  ERC1967InvalidImplementation: (a) =>
    `${addr(a.implementation)} is not a valid upgrade target. Deploy the release first.`,
  ERC1967NonPayable: () => "This upgrade call must not send ETH. Send it again without value.",
  ERC20InsufficientAllowance: (a, c) =>
    `${addr(a.spender)} may move only ${tok(a.allowance, c)}; ${tok(a.needed, c)} are needed. Approve it for the amount first.`,
  ERC20InsufficientBalance: (a, c) =>
    `${addr(a.sender)} holds ${tok(a.balance, c)}; ${tok(a.needed, c)} are needed. Use at most the balance.`,
  ERC20InvalidApprover: (a) => `${addr(a.approver)} cannot approve spending. Use a real account.`,
  ERC20InvalidReceiver: (a) => `${addr(a.receiver)} cannot receive tokens. Use a real account.`,
  ERC20InvalidSender: (a) => `${addr(a.sender)} cannot send tokens. Use a real account.`,
  ERC20InvalidSpender: (a) => `${addr(a.spender)} cannot be approved to spend. Use a real account.`,
  ERC2612ExpiredSignature: (a) => `The signed permit expired at ${when(a.deadline)}. Sign a new one.`,
  ERC2612InvalidSigner: (a) =>
    `The permit was signed by ${addr(a.signer)}, not by ${addr(a.owner)}. Sign it with the owner's account.`,
  EnforcedPause: () => "This contract is paused. An admin must unpause it once the incident is over; then try again.",
  ExpectedPause: () => "This contract is not paused, so there is nothing to unpause.",
  FailedCall: () => "A call made by the contract failed. Check the target and try again.",
  InvalidAccountNonce: (a) =>
    `The signature uses an old nonce for ${addr(a.account)} (current ${text(a.currentNonce)}). Sign again.`,
  InvalidInitialization: () => "This contract is already initialized. Programs are set up once, at deployment.",
  NotInitializing: () => "This set-up step can only run while the contract is being initialized.",
  SafeCastOverflowedUintDowncast: (a) =>
    `The number ${text(a.value)} is too large (over ${text(a.bits)} bits). Use a smaller value.`,
  UUPSUnauthorizedCallContext: () =>
    "Upgrades go through the program's contract, not its implementation. Call the program's address.",
  UUPSUnsupportedProxiableUUID: () =>
    "The new implementation is not an upgradeable contract of this kind. Deploy the right release.",
  ZeroAddress: () => "An address is empty (the zero address). Enter a real address.",
  // Points
  SupplyCapExceeded: (a) => `The token supply would pass its limit (${sp(a.max)}). Mint less.`,
  TransferNotWhitelisted: (a) =>
    `${addr(a.account)} is not on the transfer allowlist while transfers are restricted. Add it on the Allowlists page first.`,
  // Factory
  AmountTooSmall: () => "After price, fees and rounding, this amount comes to nothing. Use a larger amount.",
  AssetAlreadyRegistered: (a) => `${addr(a.asset)} is already registered as collateral. Nothing to do.`,
  AssetNotPegged: (a) =>
    `The price of ${addr(a.asset)} is off its peg, stale or missing. Wait for the price feed to recover, or have an admin fix it.`,
  AssetNotRegistered: (a) => `${addr(a.asset)} is not registered as collateral. An admin must register it first.`,
  AssetWithoutFeed: (a) => `${addr(a.asset)} has no price feed yet. Set its feed first, then register it.`,
  BasketModeActive: () =>
    "Minting is closed while collateral is off its peg (basket mode). Wait until every asset is back on its peg.",
  CollateralVaultPaused: (a) => `The collateral vault ${addr(a.vault)} is paused. Wait until an admin unpauses it.`,
  DelegateCallOnly: () => "This code only runs through the program's contract. Call the program's address.",
  FeeReceiverNotWhitelisted: (a) =>
    `The fee receiver ${addr(a.feeReceiver)} is not on the transfer allowlist. Add it first.`,
  FeeTooHigh: (a) =>
    `A fee of ${text(a.feeBps)} bps is above the maximum of ${text(a.maxBps)} bps. Choose a lower fee.`,
  ForeignRelease: (a) => `${addr(a.programFactory)} belongs to another release. Use this program's own release.`,
  InvalidVault: (a) =>
    `${addr(a.vault)} is not the collateral vault this program created for ${addr(a.asset)}. Create the vault, then register it.`,
  NoCollateral: () => "There is no collateral to redeem from. Nothing can be paid out now.",
  NotMintWhitelisted: (a) =>
    `${addr(a.account)} is not on the mint allowlist. Add it on the Allowlists page, then mint again.`,
  NotRedeemWhitelisted: (a) =>
    `${addr(a.account)} is not on the redeem allowlist. Add it on the Allowlists page, then redeem again.`,
  NotRequester: (a) =>
    `Only the customer who asked for redemption #${text(a.requestId)} (or an executor, to finalize) may do this; ${addr(a.caller)} may not.`,
  RedeemDelayNotElapsed: (a) => {
    const at = new Date(Number(a.readyAt) * 1000);
    const ready = Number.isNaN(at.getTime()) ? "not ready yet" : readyIn(at.toISOString(), Date.now());
    return `Redemption #${text(a.requestId)} is not ready yet: ${ready}. Finalize it then, or ask an executor, who may finalize at once.`;
  },
  RedeemDelayTooLong: () => "The redemption delay may be at most 30 days. Choose a shorter delay.",
  RedeemRequestNotFound: (a) => `There is no redemption #${text(a.requestId)}. Check the request number.`,
  RedeemRequestNotPending: (a) =>
    `Redemption #${text(a.requestId)} is already ${status(REQUEST_STATUS, a.status)}. Nothing to do.`,
  ReentrancyGuardReentrantCall: () => "The contract refused a nested call. Send the transaction on its own.",
  SafeERC20FailedOperation: (a) => `The token ${addr(a.token)} refused the transfer. Check the balance and allowance.`,
  TooManyAssets: (a) => `At most ${text(a.max)} collateral assets can be registered. Remove one first.`,
  UnexpectedBasketMode: () =>
    "The redemption mode changed since the request was made. Look at the request again and retry.",
  UnsupportedAssetTransfer: (a) =>
    `${addr(a.asset)} delivered less than asked. Tokens that charge a fee on transfer cannot be collateral.`,
  UnsupportedDecimals: (a) => `${addr(a.asset)} has ${text(a.decimals)} decimals; at most 18 are supported.`,
  VaultAlreadyCreated: (a) => `The vault of ${addr(a.asset)} exists already, at ${addr(a.vault)}. Register that one.`,
  VaultImplementationUnknown: () =>
    "This program predates vault creation. See the migration note in the deployment guide.",
  VaultNotEmpty: (a) => `The vault of ${addr(a.asset)} still holds collateral. Wait until redemptions have emptied it.`,
  ZeroAmount: () => "The amount is zero. Enter a positive amount.",
  // CollateralVault
  CallerNotFactory: () => "Only the program itself moves collateral. Use mint or redeem instead.",
  ERC4626ExceededMaxDeposit: (a) => `At most ${text(a.max)} (smallest units) can be deposited now. Deposit less.`,
  ERC4626ExceededMaxMint: (a) => `At most ${text(a.max)} vault shares can be minted now. Mint less.`,
  ERC4626ExceededMaxRedeem: (a) => `At most ${text(a.max)} vault shares can be redeemed now. Redeem less.`,
  ERC4626ExceededMaxWithdraw: () =>
    "This collateral's vault holds too little for this redemption. Redeem less of it, or redeem in basket mode.",
  SharesNonTransferable: () => "Collateral vault shares cannot be moved between accounts.",
  // PSPVault
  BatchLengthMismatch: (a) =>
    `The lists have different lengths (${text(a.expected)} and ${text(a.actual)}). Give one value per account.`,
  CallerNotAuthorized: (a) =>
    `${addr(a.caller)} holds neither MANAGER_ROLE nor ${role(a.role)}. Have an admin grant one of them on the Roles page.`,
  CampaignAlreadyExists: () => "A campaign with this name exists already. Choose another name.",
  CampaignNotActive: (a) =>
    `This campaign is ${status(CAMPAIGN_STATUS, a.status)}, not active. Resume it first, or use another campaign.`,
  CampaignNotFound: () => "There is no such campaign. Check its name, or create it first.",
  CreatorAlreadyRevoked: () => "This campaign's creator is already revoked. Nothing to do.",
  EmptyBatch: () => "The list is empty. Add at least one entry.",
  InsufficientBudget: (a) =>
    `This campaign has ${sp(a.available)} left; ${sp(a.amount)} would exceed it. Fund the campaign or issue at most ${sp(a.available)}.`,
  InsufficientPSPBalance: (a) =>
    `${addr(a.holder)} holds ${units(a.balance)} pSP of this campaign; ${units(a.amount)} pSP are needed. Use at most the balance.`,
  InvalidCampaignId: () => "The campaign has no name. Enter one.",
  InvalidCampaignStatus: (a) =>
    `This campaign is ${status(CAMPAIGN_STATUS, a.status)}, so this step is not allowed: campaigns go from active to paused and back, then to closed, and a closed campaign cannot be funded or reopened. Create a new campaign instead.`,
  InvalidReturnTo: (a) =>
    `What is left of a closed campaign goes back to its funder, ${addr(a.expected)}, not to ${addr(a.returnTo)}. Close it to the funder.`,
  LimitTooLarge: () => "This limit is too large. Use a smaller limit.",
  MinterLimitExceeded: (a) => {
    if (a.limit === undefined || a.issued === undefined)
      return `This minter would pass its limit. Raise its limit or issue less.`;
    const left = BigInt(String(a.limit)) - BigInt(String(a.issued));
    const l = sp(left > 0n ? left : 0n);
    return `This minter has ${l} left to issue (limit ${sp(a.limit)}, ${sp(a.issued)} issued); ${sp(a.amount)} would exceed it. Raise its limit or issue at most ${l}.`;
  },
  MinterNotAuthorized: (a) =>
    `${addr(a.minter)} may not issue in this campaign. Add it as a minter of the campaign, with a limit, first.`,
  NotCampaignAdmin: (a) => `${addr(a.caller)} is not an admin of this campaign. Ask its creator to add it.`,
  NotCampaignCreator: (a) => `Only this campaign's creator adds admins; ${addr(a.caller)} is not its creator.`,
  NotCampaignFunder: (a) => `Only this campaign's funder (its creator) may fund it; ${addr(a.caller)} may not.`,
  SettlementReceiverNotWhitelisted: (a) =>
    `${addr(a.receiver)} is not on this campaign's settlement allowlist. Add it under "Settlement allowlist", then settle again.`,
  TooManyAccounts: (a) =>
    `At most ${text(a.max)} accounts fit in one list; this one has ${text(a.length)}. Add the rest afterwards.`,
  TransferReceiverNotWhitelisted: (a) =>
    `${addr(a.to)} is not on this campaign's pSP transfer allowlist. Add it under "pSP transfer allowlist", then try again.`,
  // Oracle
  FeedNotConfigured: (a) => `${addr(a.asset)} has no price feed. An admin must set one.`,
  InvalidFeedDecimals: (a) => `A price feed with ${text(a.decimals)} decimals is not supported (at most 36).`,
  InvalidHeartbeat: () => "The feed's update interval must be more than zero.",
  InvalidPegBand: () => "The peg band is invalid: the lower bound must be above zero and not above the upper bound.",
  InvalidPrice: (a) => `The price feed of ${addr(a.asset)} answered ${text(a.answer)}, not a price. Fix the feed.`,
  MalformedFeedResponse: (a) => `The price feed ${addr(a.feed)} of ${addr(a.asset)} answered nonsense. Fix the feed.`,
  SequencerDown: () => "The network's sequencer is down, so no price is trusted. Wait until it is back up.",
  SequencerGracePeriodNotOver: (a) =>
    `The network's sequencer came back up only recently. Try again after ${when(a.readyAt)}.`,
  StalePrice: (a) =>
    `The price of ${addr(a.asset)} is out of date (last update ${when(a.updatedAt)}). Wait for the feed to update.`,
  // ProgramFactory
  BrandTaken: (a) => `The brand "${text(a.brand)}" has a program on this chain already. Choose another brand.`,
  Create2EmptyBytecode: () => "The contract to deploy has no code. Deploy the release first.",
  FailedDeployment: () => "Deploying the program's contracts failed. Try again; if it fails again, check the release.",
  InsufficientBalance: (a) => `The deployer holds ${units(a.balance)} ETH; ${units(a.needed)} ETH are needed.`,
  InvalidBrand: (a) =>
    `"${text(a.brand)}" is not a valid brand: use 1 to 32 lowercase letters and digits, such as acme2026.`,
  NotAContract: (a) => `${addr(a.account)} is not a contract. Deploy the release first.`,
};

/** The names with a sentence, for the test that every error of the ABIs has one. */
export const SENTENCE_NAMES: readonly string[] = Object.keys(SENTENCES);

/**
 * The sentence for a decoded revert, or undefined when the console has none for it. `tokenSymbol`:
 * the program token's own symbol for its amounts, null (not known) writes them without one.
 */
export function revertSentence(
  name: string,
  args: unknown,
  contract?: string,
  tokenSymbol: string | null = null,
): string | undefined {
  const f = SENTENCES[name];
  if (!f) return undefined;
  symbol = tokenSymbol;
  try {
    return f(args && typeof args === "object" && !Array.isArray(args) ? (args as Args) : {}, contract);
  } catch {
    return undefined;
  } finally {
    symbol = null;
  }
}
