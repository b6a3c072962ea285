import { MAX_UINT256 } from "@points/schema";
import { plainSafeTx } from "@points/testkit";
import { BAD_SAFE_ACTIONS, VALID_SAFE_ACTIONS } from "./badInputSafe.js";

/**
 * The sample tables of the malformed-request generator (badInput.ts): for every field name the
 * route table uses, its kind, one valid value and the wrong values that must each be refused.
 */

export const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const LOWER = ADDRESS.toLowerCase();

export type Kind =
  | "address"
  | "amount"
  | "bool"
  | "contract"
  | "role"
  | "campaign"
  | "metadata"
  | "addresses"
  | "text"
  | "label"
  | "siweMessage"
  | "signature"
  | "email"
  | "code"
  | "step"
  | "chainNumber"
  | "brand"
  | "uuid"
  | "organization"
  | "token"
  | "object"
  | "nonce"
  | "safeTx"
  | "proposalStatus"
  | "rows"
  | "bulkRecipients"
  | "bulkId"
  | "gasCeiling"
  | "safeActions"
  | "deskPolicy"
  | "deskDecision"
  | "deskReason"
  | "unixTime"
  | "webhookUrl"
  | "eventTypes"
  | "blockNumber"
  | "feeBps"
  | "redeemDelay"
  | "feeReceiver";

const SAFE_TX = plainSafeTx(ADDRESS, "0x", 0);

/** Every field name the route table uses, by kind; a new field without a kind fails the suite. */
export const FIELD_KINDS: Record<string, Kind> = {
  asset: "address",
  receiver: "address",
  to: "address",
  account: "address",
  key: "address",
  from: "address",
  holder: "address",
  minter: "address",
  treasury: "address",
  factoryAddr: "address",
  assetAddr: "address",
  address: "address",
  label: "label",
  message: "siweMessage",
  signature: "signature",
  amount: "amount",
  spBudget: "amount",
  limit: "amount",
  requestId: "amount",
  expectedBasketMode: "bool",
  active: "bool",
  allowed: "bool",
  revokeOtherRoles: "bool",
  contract: "contract",
  role: "role",
  roleType: "role",
  campaignId: "campaign",
  metadata: "metadata",
  settlementDestinations: "addresses",
  transferWhitelist: "addresses",
  chainId: "chainNumber",
  id: "text",
  program: "text",
  email: "email",
  code: "code",
  step: "step",
  wallet: "address",
  brand: "brand",
  taskId: "uuid",
  programId: "text",
  organization: "organization",
  token: "token",
  deployer: "address",
  collateral: "object",
  oracle: "object",
  nonce: "nonce",
  safe: "address",
  proposalId: "uuid",
  tx: "safeTx",
  status: "proposalStatus",
  rows: "rows",
  recipients: "bulkRecipients",
  bulkId: "bulkId",
  gasCeiling: "gasCeiling",
  minAmount: "amount",
  gasBudgetPerDay: "amount",
  dryRun: "bool",
  settlementReceiver: "address",
  actions: "safeActions",
  multiSendCallOnly: "address",
  newAdmin: "address",
  policy: "deskPolicy",
  deskPolicy: "deskPolicy",
  version: "nonce",
  manager: "address",
  signedUntil: "unixTime",
  decision: "deskDecision",
  reason: "deskReason",
  webhookUrl: "webhookUrl",
  eventTypes: "eventTypes",
  fromBlock: "blockNumber",
  toBlock: "blockNumber",
  webhookId: "uuid",
  deliveryId: "uuid",
  delay: "redeemDelay",
  mintFeeBps: "feeBps",
  redeemFeeBps: "feeBps",
  feeReceiver: "feeReceiver",
};

/** Body fields whose valid sample is not their kind's (onboarding's nested objects). */
export const VALID_FIELD: Record<string, unknown> = {
  collateral: { asset: ADDRESS },
  oracle: { feed: ADDRESS, heartbeat: 3600, lowerPeg: "980000000000000000", upperPeg: "1020000000000000000" },
};

export const VALID: Record<Kind, unknown> = {
  address: ADDRESS,
  amount: "1",
  bool: true,
  contract: "factory",
  role: "MANAGER",
  campaign: "summer-2026",
  metadata: "",
  addresses: [ADDRESS],
  text: "acme",
  label: "USDC",
  siweMessage: "example.com wants you to sign in with your Ethereum account",
  email: "ada@example.com",
  code: "123456",
  step: 2,
  chainNumber: 31337,
  brand: "acme",
  uuid: "0b7e8c52-4a36-4d6a-9a55-2f5c1d3e8a10",
  organization: { name: "Acme", website: "https://acme.example", description: "Loyalty for Acme" },
  token: {
    name: "Acme Points",
    symbol: "ACME",
    description: "Points",
    logoUrl: "https://acme.example/logo.png",
    websiteUrl: "https://acme.example",
  },
  object: {},
  nonce: 0,
  safeTx: SAFE_TX,
  signature: "0x" + "11".repeat(64) + "1b",
  proposalStatus: "pending",
  rows: [], // filled from the route's own row shape (validRequest)
  bulkRecipients: [{ address: ADDRESS, amount: "1.5" }],
  bulkId: "drop-1",
  gasCeiling: 10_000_000,
  safeActions: VALID_SAFE_ACTIONS,
  deskPolicy: "manual",
  deskDecision: "approve",
  deskReason: "",
  unixTime: 1_900_000_000,
  webhookUrl: "https://hooks.example.com/points",
  eventTypes: ["PSPMinted"],
  blockNumber: 1,
  feeBps: 25,
  redeemDelay: 3600,
  feeReceiver: ADDRESS,
};
export const VALID_PARAM: Record<string, string> = { chainId: "31337", id: "acme", brand: "acme", kind: "collateral" };

/** A wrong value and why it is wrong. `raw` is spliced into the JSON text as is. */
export interface Bad {
  why: string;
  value?: unknown;
  raw?: string;
}

const badChecksum = "0x" + LOWER.slice(2, 12).toUpperCase() + LOWER.slice(12); // mixed case, not EIP-55
export const BAD: Record<Kind, Bad[]> = {
  address: [
    { why: "short address", value: "0x1234" },
    { why: "non-hex address", value: "0x" + "g".repeat(40) },
    { why: "0X prefix", value: "0X" + LOWER.slice(2) },
    { why: "41 hex digits", value: LOWER + "1" },
    { why: "no 0x prefix", value: LOWER.slice(2) },
    { why: "wrong EIP-55 checksum", value: badChecksum },
    { why: "number instead of address", value: 12345 },
    { why: "empty string address", value: "" },
    { why: "object instead of address", value: { address: ADDRESS } },
  ],
  amount: [
    { why: "negative number", value: -1 },
    { why: "negative string", value: "-1" },
    { why: "fractional number", value: 1.5 },
    { why: "fractional string", value: "1.5" },
    { why: "exponent string", value: "1e18" },
    { why: "hex string", value: "0x10" },
    { why: "leading zero", value: "01" },
    { why: "JSON number above 2^53", raw: "9007199254740993" },
    { why: "JSON number 1e400", raw: "1e400" },
    { why: "above uint256", value: (MAX_UINT256 + 1n).toString() },
    { why: "80-digit string", value: "9".repeat(80) },
    { why: "boolean instead of amount", value: true },
    { why: "empty string amount", value: "" },
    { why: "array instead of amount", value: ["1"] },
  ],
  bool: [
    { why: "string instead of boolean", value: "true" },
    { why: "number instead of boolean", value: 1 },
    { why: "null instead of boolean", value: null },
  ],
  contract: [
    { why: "unknown contract name", value: "vault" },
    { why: "empty contract name", value: "" },
    { why: "number instead of contract name", value: 5 },
  ],
  role: [
    { why: "unknown role", value: "OWNER_ROLE" },
    { why: "bare _ROLE", value: "_ROLE" },
    { why: "number instead of role", value: 7 },
  ],
  campaign: [
    { why: "non-hex campaign id", value: "0x" + "z".repeat(64) },
    { why: "63-digit hex campaign id", value: "0x" + "a".repeat(63) },
    { why: "65-character label", value: "l".repeat(65) },
    { why: "empty campaign id", value: "" },
    { why: "control character in label", value: "bad\u0001label" },
    { why: "number instead of campaign id", value: 42 },
  ],
  metadata: [
    { why: "metadata over 4096 characters", value: "m".repeat(4097) },
    { why: "number instead of metadata", value: 5 },
  ],
  addresses: [
    { why: "string instead of address list", value: ADDRESS },
    { why: "bad address in list", value: [ADDRESS, "0x1234"] },
    { why: "257 addresses", value: Array.from({ length: 257 }, () => ADDRESS) },
  ],
  siweMessage: [
    { why: "empty message", value: "" },
    { why: "4001-character message", value: "m".repeat(4001) },
    { why: "number instead of message", value: 5 },
  ],
  label: [
    { why: "empty label", value: "" },
    { why: "101-character label", value: "l".repeat(101) },
    { why: "number instead of label", value: 5 },
  ],
  text: [
    { why: "empty program", value: "" },
    { why: "101-character program", value: "p".repeat(101) },
    { why: "number instead of program", value: 5 },
  ],
  email: [
    { why: "no @", value: "ada.example.com" },
    { why: "no domain", value: "ada@" },
    { why: "empty e-mail", value: "" },
    { why: "255-character e-mail", value: "a".repeat(243) + "@example.com" },
    { why: "number instead of e-mail", value: 5 },
  ],
  code: [
    { why: "5 digits", value: "12345" },
    { why: "7 digits", value: "1234567" },
    { why: "letters", value: "12a456" },
    { why: "number instead of code string", value: 123456 },
    { why: "empty code", value: "" },
  ],
  step: [
    { why: "step 0", value: 0 },
    { why: "step 10", value: 10 },
    { why: "fractional step", value: 1.5 },
    { why: "string step", value: "2" },
  ],
  chainNumber: [
    { why: "chain id as string", value: "31337" },
    { why: "zero chain id", value: 0 },
    { why: "fractional chain id", value: 1.5 },
  ],
  brand: [
    { why: "uppercase brand", value: "Acme" },
    { why: "dash in brand", value: "ac-me" },
    { why: "33-character brand", value: "b".repeat(33) },
    { why: "empty brand", value: "" },
  ],
  uuid: [
    { why: "not a UUID", value: "task-1" },
    { why: "number instead of UUID", value: 7 },
  ],
  organization: [
    { why: "string instead of organization", value: "Acme" },
    { why: "ftp website", value: { website: "ftp://acme.example" } },
    { why: "empty organization name", value: { name: "" } },
    { why: "unknown organization field", value: { name: "Acme", owner: "x" } },
  ],
  object: [
    { why: "string instead of object", value: "x" },
    { why: "null instead of object", value: null },
    { why: "array instead of object", value: [] },
  ],
  nonce: [
    { why: "negative nonce", value: -1 },
    { why: "fractional nonce", value: 1.5 },
    { why: "nonce as string", value: "1" },
    { why: "nonce above 2^53", raw: "9007199254740993" },
  ],
  token: [
    { why: "string instead of token", value: "ACME" },
    { why: "12-character symbol", value: { symbol: "ABCDEFGHIJKL" } },
    { why: "symbol with a space", value: { symbol: "AC ME" } },
    { why: "logo URL not a URL", value: { logoUrl: "logo.png" } },
  ],
  safeTx: [
    { why: "string instead of Safe transaction", value: "0x" },
    { why: "negative Safe nonce", value: { ...SAFE_TX, nonce: "-1" } },
    { why: "value above uint256", value: { ...SAFE_TX, value: (MAX_UINT256 + 1n).toString() } },
    { why: "operation 2", value: { ...SAFE_TX, operation: 2 } },
    { why: "gas refund (gasPrice 1)", value: { ...SAFE_TX, gasPrice: "1" } },
    { why: "refund receiver set", value: { ...SAFE_TX, refundReceiver: ADDRESS } },
    { why: "odd-length data", value: { ...SAFE_TX, data: "0x123" } },
    { why: "unknown Safe transaction field", value: { ...SAFE_TX, extra: 1 } },
    { why: "Safe transaction without nonce", value: { ...SAFE_TX, nonce: undefined } },
  ],
  signature: [
    { why: "short signature", value: "0x1234" },
    { why: "signature without 0x", value: "1".repeat(130) },
    { why: "64-byte signature", value: "0x" + "11".repeat(64) },
    { why: "non-hex signature", value: "0x" + "zz".repeat(65) },
    { why: "number instead of signature", value: 1 },
    { why: "signature with v 31 (eth_sign)", value: "0x" + "11".repeat(64) + "1f" },
  ],
  proposalStatus: [{ why: "unknown proposal status", value: "done" }],
  rows: [
    { why: "rows not an array", value: "0x" },
    { why: "no rows", value: [] },
    { why: "a row missing its fields", value: [{}] },
    { why: "a row with an unknown field", value: [{ extra: 1 }] },
    { why: "501 rows", value: Array.from({ length: 501 }, () => ({})) },
  ],
  // Only the shape is refused here; a row's content is 422 INVALID_ROWS (test/e2e.bulk.rows.test.ts).
  bulkRecipients: [
    { why: "number instead of rows", value: 5 },
    { why: "empty CSV", value: "" },
    { why: "no rows", value: [] },
    { why: "a row without amount", value: [{ address: ADDRESS }] },
    { why: "a row with an unknown field", value: [{ address: ADDRESS, amount: "1", to: ADDRESS }] },
    { why: "an amount as a JSON number", value: [{ address: ADDRESS, amount: 1 }] },
    { why: "10,001 rows", value: Array.from({ length: 10_001 }, () => ({ address: ADDRESS, amount: "1" })) },
    { why: "CSV over 1,500,000 characters", value: "x".repeat(1_500_001) },
  ],
  bulkId: [
    { why: "empty bulk id", value: "" },
    { why: "bulk id with a space", value: "drop 1" },
    { why: "65-character bulk id", value: "b".repeat(65) },
    { why: "number instead of bulk id", value: 1 },
  ],
  gasCeiling: [
    { why: "gas ceiling under 1M", value: 999_999 },
    { why: "gas ceiling over 30M", value: 30_000_001 },
    { why: "fractional gas ceiling", value: 1.5e6 + 0.5 },
    { why: "gas ceiling as string", value: "10000000" },
  ],
  safeActions: BAD_SAFE_ACTIONS,
  deskPolicy: [
    { why: "unknown policy", value: "sometimes" },
    { why: "empty policy", value: "" },
    { why: "number instead of policy", value: 1 },
  ],
  deskDecision: [
    { why: "unknown decision", value: "maybe" },
    { why: "boolean instead of decision", value: true },
  ],
  deskReason: [
    { why: "201-character reason", value: "r".repeat(201) },
    { why: "number instead of reason", value: 5 },
  ],
  unixTime: [
    { why: "zero time", value: 0 },
    { why: "fractional time", value: 1.5 },
    { why: "time as string", value: "1900000000" },
    { why: "time in milliseconds past 2^40", value: 2 ** 41 },
  ],
  webhookUrl: [
    { why: "ftp URL", value: "ftp://hooks.example.com/x" },
    { why: "not a URL", value: "hooks example" },
    { why: "empty URL", value: "" },
    { why: "number instead of URL", value: 5 },
  ],
  eventTypes: [
    { why: "no event types", value: [] },
    { why: "string instead of list", value: "PSPMinted" },
    { why: "lowercase event type", value: ["psp minted"] },
  ],
  blockNumber: [
    { why: "negative block", value: -1 },
    { why: "fractional block", value: 1.5 },
    { why: "text block", value: "1" },
  ],
  // The Factory's bounds (FactoryBase.sol): MAX_FEE_BPS 1000, MAX_REDEEM_DELAY 30 days.
  feeBps: [
    { why: "fee above MAX_FEE_BPS", value: 1001 },
    { why: "negative fee", value: -1 },
    { why: "fractional fee", value: 2.5 },
    { why: "fee as string", value: "25" },
  ],
  redeemDelay: [
    { why: "delay above MAX_REDEEM_DELAY", value: 30 * 24 * 3600 + 1 },
    { why: "negative delay", value: -1 },
    { why: "fractional delay", value: 1.5 },
    { why: "delay as string", value: "3600" },
  ],
  feeReceiver: [
    { why: "zero address fee receiver", value: "0x" + "0".repeat(40) },
    { why: "short fee receiver", value: "0x1234" },
    { why: "wrong EIP-55 checksum", value: badChecksum },
  ],
};

/** Path parameters travel as text: only text-shaped mistakes apply. */
export const BAD_PARAM: Record<string, string[]> = {
  address: ["0x1234", "0x" + "g".repeat(40), "0X" + LOWER.slice(2), LOWER + "1", badChecksum],
  amount: ["-1", "1.5", "1e3", "0x10", (MAX_UINT256 + 1n).toString()],
  contract: ["vault", "Factory2"],
  role: ["OWNER_ROLE", "ROLE"],
  campaign: ["0x" + "z".repeat(64), "0x" + "a".repeat(63), "l".repeat(65)],
  chainId: ["0", "abc", "-1", "1".repeat(17), "1.5"],
  id: ["i".repeat(101)],
  brand: ["b".repeat(101)],
  taskId: ["nope", "00000000-0000-4000-8000-00000000000"],
  kind: ["token", "Collateral"],
  proposalId: ["nope", "00000000-0000-4000-8000-00000000000"],
  programId: ["p".repeat(101)],
  webhookId: ["nope", "00000000-0000-4000-8000-00000000000"],
  deliveryId: ["nope", "00000000-0000-4000-8000-00000000000"],
};
export const BAD_QUERY: Record<string, [string, string][]> = {
  program: [
    ["", "empty program"],
    ["p".repeat(101), "101-character program"],
  ],
  chainId: [
    ["abc", "non-numeric chainId"],
    ["-1", "negative chainId"],
    ["1.5", "fractional chainId"],
  ],
  safe: [
    ["0x1234", "short safe address"],
    [LOWER + "1", "41-digit safe address"],
  ],
  status: [["done", "unknown proposal status"]],
};
