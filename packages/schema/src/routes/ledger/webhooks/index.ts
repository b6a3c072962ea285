export { WebhookView, WebhookDeliveryView } from "./common.js";
export { ledgerWebhookCreate } from "./create.js";
export { ledgerWebhookList } from "./list.js";
export { ledgerWebhookPause } from "./pause.js";
export { ledgerWebhookResume } from "./resume.js";
export { ledgerWebhookDelete } from "./delete.js";
export { ledgerWebhookDeliveries } from "./deliveryLog.js";
export { ledgerWebhookRedeliver } from "./redeliver.js";
export { ledgerWebhookReplay } from "./replay.js";
export {
  LEDGER_CONTRACTS,
  LedgerEventKind,
  WebhookEventData,
  WebhookRemovedData,
  WebhookMessage,
  type LedgerEventName,
} from "./delivery.js";
