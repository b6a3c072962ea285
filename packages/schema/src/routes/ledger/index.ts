export { LedgerQuery, pageQuery, MinterView, HolderCursor, EventCursor } from "./common.js";
export { ledgerCampaigns, LedgerCampaignView } from "./campaigns.js";
export { ledgerCampaignBalances } from "./balances.js";
export { ledgerHolderHistory, LedgerEventView } from "./holderHistory.js";
export { ledgerRoles } from "./roles.js";
export { ledgerRoleHistory } from "./roleHistory.js";
export { ledgerAllowlists } from "./allowlists.js";
export { ledgerSpHolders } from "./spHolders.js";
export { ledgerRedemptions, LedgerRedemptionView } from "./redemptions.js";
