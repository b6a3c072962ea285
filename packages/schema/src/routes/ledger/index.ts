export { LedgerQuery, pageQuery, MinterView } from "./common.js";
export { ledgerCampaigns, LedgerCampaignView } from "./campaigns.js";
export { ledgerCampaignBalances } from "./balances.js";
export { ledgerHolderHistory, LedgerEventView } from "./holderHistory.js";
