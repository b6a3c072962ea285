import type { Core } from "./core.js";
import { paginate } from "../paginate.js";
import type { Body, CallOptions, Params, Query, ReadOptions } from "../types.js";

/** Page options of the ledger's lists: `cursor` is the previous answer's `nextCursor`. */
export type PageOptions = Omit<Query<"ledgerHolderHistory">, "program" | "limit" | "metadata"> & {
  program?: string;
  limit?: number;
} & CallOptions;

/** Page options of a holder's history: `metadata` keeps only the events carrying exactly that text. */
export type HistoryOptions = PageOptions & { metadata?: string };

/** Page options of the customer list: an address prefix and a minimum SP balance (smallest units). */
export type CustomerOptions = PageOptions & { prefix?: string; minBalance?: bigint | string };

/** The file routes of the ledger (kept out of the route table: they answer CSV, not JSON). */
export const LEDGER_FILE_ROUTES = {
  ledgerHolderHistoryCsv: { method: "get", path: "/api/v1/ledger/holders/:address/history.csv", file: true },
  ledgerCampaignLedgerCsv: { method: "get", path: "/api/v1/ledger/campaigns/:campaignId/ledger.csv", file: true },
} as const;

/** The program ledger (API README, "Ledger"): history and state from the API's index, not the wallet's RPC. */
export function ledgerNamespace(core: Core) {
  const page = (opts: PageOptions) => ({
    program: opts.program ?? core.program,
    ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
    ...(opts.limit === undefined ? {} : { limit: String(opts.limit) }),
  });
  const ns = {
    /** Every campaign with budget, available, outstanding, status, admins, allowlists and minters. */
    campaigns: (opts: ReadOptions = {}) =>
      core.request("ledgerCampaigns", { query: { program: opts.program ?? core.program } }, opts),
    /** pSP holders of a campaign and their balances, a page at a time. */
    campaignBalances: (campaignId: Params<"ledgerCampaignBalances">["campaignId"], opts: PageOptions = {}) =>
      core.request("ledgerCampaignBalances", { params: { campaignId }, query: page(opts) }, opts),
    /** Every event of a campaign, newest first, a page at a time. */
    campaignLedger: (campaignId: Params<"ledgerCampaignLedger">["campaignId"], opts: PageOptions = {}) =>
      core.request("ledgerCampaignLedger", { params: { campaignId }, query: page(opts) }, opts),
    /** SP holders and their balances, a page at a time. */
    spHolders: (opts: PageOptions = {}) => core.request("ledgerSpHolders", { query: page(opts) }, opts),
    /**
     * Customers with SP and pSP balances and pSP issued, settled and clawed back, by address, a page
     * at a time; `prefix` (0x and hex digits) and `minBalance` (SP, smallest units) narrow the list.
     */
    customers: (opts: CustomerOptions = {}) =>
      core.request(
        "ledgerCustomers",
        {
          query: {
            ...page(opts),
            ...(opts.prefix === undefined ? {} : { prefix: opts.prefix }),
            ...(opts.minBalance === undefined ? {} : { minBalance: opts.minBalance.toString() }),
          },
        },
        opts,
      ),
    /** Members of the mint, redeem and transfer allowlists. */
    allowlists: (opts: ReadOptions = {}) =>
      core.request("ledgerAllowlists", { query: { program: opts.program ?? core.program } }, opts),
    /** Role holders of every program contract now. */
    roles: (opts: ReadOptions = {}) =>
      core.request("ledgerRoles", { query: { program: opts.program ?? core.program } }, opts),
    /** Every role granted or revoked, newest first, a page at a time. */
    roleHistory: (opts: PageOptions = {}) => core.request("ledgerRoleHistory", { query: page(opts) }, opts),
    /** Redemption requests, newest first, optionally of one status. */
    redemptions: (opts: PageOptions & { status?: Query<"ledgerRedemptions">["status"] } = {}) =>
      core.request(
        "ledgerRedemptions",
        { query: { ...page(opts), ...(opts.status === undefined ? {} : { status: opts.status }) } },
        opts,
      ),
    /** Every event touching an address, newest first, a page at a time. */
    holderHistory: (address: Params<"ledgerHolderHistory">["address"], opts: HistoryOptions = {}) =>
      core.request(
        "ledgerHolderHistory",
        {
          params: { address },
          query: { ...page(opts), ...(opts.metadata === undefined ? {} : { metadata: opts.metadata }) },
        },
        opts,
      ),
    /**
     * Every event touching an address as CSV text, oldest first (columns: API README, "CSV
     * export"); the whole file in memory, so stream the route itself for very long histories.
     */
    holderHistoryCsv: (address: Params<"ledgerHolderHistory">["address"], opts: ReadOptions = {}) =>
      core.file(
        LEDGER_FILE_ROUTES.ledgerHolderHistoryCsv,
        { params: { address }, query: { program: opts.program ?? core.program } },
        opts,
      ),
    /**
     * Webhooks of the client's API key (docs/architecture.md#webhooks): `subscribe` answers the
     * signing secret once (`created: true`); the same URL and filter again answers that
     * subscription, `created: false` and `secret: null`. Verify deliveries with `verifyWebhook`.
     */
    webhooks: {
      subscribe: (body: Body<"ledgerWebhookCreate">, opts: CallOptions = {}) =>
        core.request("ledgerWebhookCreate", { body: { program: core.program, ...body } }, opts),
      list: (opts: CallOptions = {}) => core.request("ledgerWebhookList", {}, opts),
      pause: (webhookId: string, opts: CallOptions = {}) =>
        core.request("ledgerWebhookPause", { params: { webhookId } }, opts),
      resume: (webhookId: string, opts: CallOptions = {}) =>
        core.request("ledgerWebhookResume", { params: { webhookId } }, opts),
      remove: (webhookId: string, opts: CallOptions = {}) =>
        core.request("ledgerWebhookDelete", { params: { webhookId } }, opts),
      deliveries: (webhookId: string, opts: Omit<PageOptions, "program"> = {}) =>
        core.request(
          "ledgerWebhookDeliveries",
          {
            params: { webhookId },
            query: {
              ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
              ...(opts.limit === undefined ? {} : { limit: String(opts.limit) }),
            },
          },
          opts,
        ),
      redeliver: (webhookId: string, deliveryId: string, opts: CallOptions = {}) =>
        core.request("ledgerWebhookRedeliver", { params: { webhookId, deliveryId } }, opts),
      replay: (webhookId: string, range: { fromBlock: number; toBlock: number }, opts: CallOptions = {}) =>
        core.request("ledgerWebhookReplay", { params: { webhookId }, body: range }, opts),
    },
    /** Every event of a campaign as CSV text, oldest first. */
    campaignLedgerCsv: (campaignId: Params<"ledgerCampaignLedger">["campaignId"], opts: ReadOptions = {}) =>
      core.file(
        LEDGER_FILE_ROUTES.ledgerCampaignLedgerCsv,
        { params: { campaignId }, query: { program: opts.program ?? core.program } },
        opts,
      ),
  };
  /** The same lists as `ns`, every page: `for await (const e of client.ledger.all.holderHistory(a))`. */
  const all = {
    campaignBalances: (campaignId: Params<"ledgerCampaignBalances">["campaignId"], opts: PageOptions = {}) =>
      paginate(
        (cursor) => ns.campaignBalances(campaignId, withCursor(opts, cursor)),
        (p) => p.holders,
      ),
    campaignLedger: (campaignId: Params<"ledgerCampaignLedger">["campaignId"], opts: PageOptions = {}) =>
      paginate(
        (cursor) => ns.campaignLedger(campaignId, withCursor(opts, cursor)),
        (p) => p.events,
      ),
    spHolders: (opts: PageOptions = {}) =>
      paginate(
        (cursor) => ns.spHolders(withCursor(opts, cursor)),
        (p) => p.holders,
      ),
    customers: (opts: CustomerOptions = {}) =>
      paginate(
        (cursor) => ns.customers(withCursor(opts, cursor)),
        (p) => p.customers,
      ),
    roleHistory: (opts: PageOptions = {}) =>
      paginate(
        (cursor) => ns.roleHistory(withCursor(opts, cursor)),
        (p) => p.events,
      ),
    redemptions: (opts: Parameters<typeof ns.redemptions>[0] = {}) =>
      paginate(
        (cursor) => ns.redemptions(withCursor(opts, cursor)),
        (p) => p.requests,
      ),
    holderHistory: (address: Params<"ledgerHolderHistory">["address"], opts: HistoryOptions = {}) =>
      paginate(
        (cursor) => ns.holderHistory(address, withCursor(opts, cursor)),
        (p) => p.events,
      ),
  };
  return { ...ns, all };
}

/** `opts` asking for the page after `cursor` (the first page when undefined). */
const withCursor = <O extends { cursor?: string }>(opts: O, cursor: string | undefined): O =>
  cursor === undefined ? opts : { ...opts, cursor };
