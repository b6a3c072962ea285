import type { Core } from "./core.js";
import type { Body, Params, ReadOptions, WriteOptions } from "../types.js";

type B<N extends Parameters<Core["write"]>[0]> = Body<N>;
type CampaignId = B<"pspMint">["campaignId"];
type Address = B<"pspMint">["to"];
type Amount = B<"pspMint">["amount"];
type Metadata = B<"pspMint">["metadata"];
type Allowed = B<"pspUpdateSettlementWhitelist">["allowed"];
type RoleType = B<"pspGrantRole">["roleType"];
type Rows<N extends "pspMintBatch" | "pspSettleBatch" | "pspExpireBatch"> = B<N>["rows"];

/**
 * The PSPVault's routes (`/studio/sdk/v1/tx/psp/*`). Arguments follow the contract calls, in
 * their order; the last argument names the signer (`from`) and optionally the program.
 */
export function vaultNamespace(core: Core) {
  const signer = (opts: WriteOptions) => ({ from: opts.from, program: opts.program ?? core.program });
  const query = (opts: ReadOptions) => ({ program: opts.program ?? core.program });
  const listUpdate =
    (name: "pspUpdateSettlementWhitelist" | "pspUpdateTransferWhitelist" | "pspSetCampaignAdmin") =>
    (campaignId: CampaignId, account: Address, allowed: Allowed, opts: WriteOptions) =>
      core.write(name, { body: { campaignId, account, allowed, ...signer(opts) } }, opts);
  const role = (name: "pspGrantRole" | "pspRevokeRole") => (roleType: RoleType, account: Address, opts: WriteOptions) =>
    core.write(name, { body: { roleType, account, ...signer(opts) } }, opts);
  const status = (name: "pspPauseCampaign" | "pspResumeCampaign") => (campaignId: CampaignId, opts: WriteOptions) =>
    core.write(name, { body: { campaignId, ...signer(opts) } }, opts);

  return {
    /** createCampaign; the budget comes from `from` (approval first); only a MANAGER_ROLE holder draws on unallocated SP first. */
    createCampaign: (campaign: Omit<B<"pspCreateCampaign">, "from" | "program">, opts: WriteOptions) =>
      core.write("pspCreateCampaign", { body: { ...campaign, ...signer(opts) } }, opts),
    /** fundCampaign by the campaign's funder or a MANAGER_ROLE holder (docs/rules.md#campaigns). */
    fundCampaign: (campaignId: CampaignId, amount: Amount, opts: WriteOptions) =>
      core.write("pspFundCampaign", { body: { campaignId, amount, ...signer(opts) } }, opts),
    /** Issue pSP (docs/rules.md#issuance): manager, issuing admin, campaign admin or active delegated minter. */
    mint: (campaignId: CampaignId, to: Address, amount: Amount, metadata: Metadata, opts: WriteOptions) =>
      core.write("pspMint", { body: { campaignId, to, amount, metadata, ...signer(opts) } }, opts),
    settle: (
      holder: Address,
      receiver: Address,
      amount: Amount,
      campaignId: CampaignId,
      metadata: Metadata,
      opts: WriteOptions,
    ) => core.write("pspSettle", { body: { holder, receiver, amount, campaignId, metadata, ...signer(opts) } }, opts),
    expire: (holder: Address, amount: Amount, campaignId: CampaignId, metadata: Metadata, opts: WriteOptions) =>
      core.write("pspExpire", { body: { holder, amount, campaignId, metadata, ...signer(opts) } }, opts),
    /** mintBatch: one transaction, one PSPMinted per row; authority, limit and budget bind the rows' total (docs/rules.md#batch-forms). */
    mintBatch: (campaignId: CampaignId, rows: Rows<"pspMintBatch">, metadata: Metadata, opts: WriteOptions) =>
      core.write("pspMintBatch", { body: { campaignId, rows, metadata, ...signer(opts) } }, opts),
    /** settleBatch: every row's receiver on the campaign's settlement allowlist; all rows or none. */
    settleBatch: (campaignId: CampaignId, rows: Rows<"pspSettleBatch">, metadata: Metadata, opts: WriteOptions) =>
      core.write("pspSettleBatch", { body: { campaignId, rows, metadata, ...signer(opts) } }, opts),
    /** expireBatch: every row back into the budget; all rows or none. */
    expireBatch: (campaignId: CampaignId, rows: Rows<"pspExpireBatch">, metadata: Metadata, opts: WriteOptions) =>
      core.write("pspExpireBatch", { body: { campaignId, rows, metadata, ...signer(opts) } }, opts),
    /** Admin transfer of pSP from `holder` to `to` (MANAGER_ROLE or TRANSFER_ADMIN_ROLE). */
    transfer: (campaignId: CampaignId, holder: Address, to: Address, amount: Amount, opts: WriteOptions) =>
      core.write("pspTransfer", { body: { campaignId, holder, to, amount, ...signer(opts) } }, opts),
    updateSettlementWhitelist: listUpdate("pspUpdateSettlementWhitelist"),
    updateTransferWhitelist: listUpdate("pspUpdateTransferWhitelist"),
    /** setMinter(campaignId, minter, limit, active); `(…, 0, false)` revokes. */
    setMinter: (
      campaignId: CampaignId,
      minter: Address,
      limit: B<"pspConfigureMinter">["limit"],
      active: B<"pspConfigureMinter">["active"],
      opts: WriteOptions,
    ) => core.write("pspConfigureMinter", { body: { campaignId, minter, limit, active, ...signer(opts) } }, opts),
    getMinterConfig: (campaignId: CampaignId, minter: Params<"pspMinterConfig">["minter"], opts: ReadOptions = {}) =>
      core.request("pspMinterConfig", { params: { campaignId, minter }, query: query(opts) }, opts),
    setCampaignAdmin: listUpdate("pspSetCampaignAdmin"),
    grantRole: role("pspGrantRole"),
    revokeRole: role("pspRevokeRole"),
    pauseCampaign: status("pspPauseCampaign"),
    resumeCampaign: status("pspResumeCampaign"),
    /**
     * closeCampaign(campaignId, to): program money back first (treasury or unallocated), the
     * rest to the funder; `to` must be the funder, `undefined` lets the server read it.
     */
    closeCampaign: (campaignId: CampaignId, to: Address | undefined, opts: WriteOptions) =>
      core.write("pspCloseCampaign", { body: { campaignId, to, ...signer(opts) } }, opts),
    /** revokeCreator(campaignId): MANAGER_ROLE ends the creator's rights; its refund stays. */
    revokeCreator: (campaignId: CampaignId, opts: WriteOptions) =>
      core.write("pspRevokeCreator", { body: { campaignId, ...signer(opts) } }, opts),
    /** setTreasury(treasury): MANAGER_ROLE; where program money goes when a campaign closes. */
    setTreasury: (treasury: Address, opts: WriteOptions) =>
      core.write("pspSetTreasury", { body: { treasury, ...signer(opts) } }, opts),
    getCampaign: (campaignId: CampaignId, opts: ReadOptions = {}) =>
      core.request("pspCampaign", { params: { campaignId }, query: query(opts) }, opts),
    /** pSP balance of `holder` in a campaign. */
    balanceOf: (campaignId: CampaignId, holder: Params<"pspBalance">["holder"], opts: ReadOptions = {}) =>
      core.request("pspBalance", { params: { campaignId, holder }, query: query(opts) }, opts),
  };
}
