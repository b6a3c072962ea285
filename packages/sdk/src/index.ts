export { createClient, type PointsClient } from "./client.js";
export { callRoute, fetchRoute, type ClientOptions, type RouteInput } from "./http.js";
export { PointsApiError, type PointsErrorCode } from "./errors.js";
export { prepare, type PreparedTx } from "./transaction.js";
export { broadcastTx as broadcast, waitTx as waitForReceipt, type SignedTx, type WaitOptions } from "./chain.js";
export { NonceQueue, type NonceQueueOptions, type QueuedBuild } from "./queue.js";
export { orderHash, orderMetadata, actionMetadata, type OrderAction } from "./order.js";
export { withPrerequisites } from "./prerequisites.js";
export {
  landedChunks,
  sendBulk,
  type BulkPlan,
  type BulkChunk,
  type BulkProgress,
  type BulkSendOptions,
  type LandedOptions,
} from "./bulk.js";
export { isPointsError, type ErrorDetails, type DetailsOf, type DecodedRevert } from "./details.js";
export type {
  Order,
  Issued,
  IssuerOptions,
  OrderSettlementRequest,
  OrderClawbackRequest,
  Settled,
  ClawedBack,
} from "./issuer.js";
export type { FoundOrder, OrderIssuance, OrderSettlement, OrderClawback } from "./namespaces/orders.js";
export type {
  RequestInput,
  ResponseData,
  WriteOptions,
  ReadOptions,
  CallOptions,
  PublicRouteName as RouteName,
  RouteEntry,
} from "./types.js";
export type { RedeemScope } from "./namespaces/redeem.js";
export { deskTypedData, type DeskView, type TypedDataSigner } from "./namespaces/desk.js";
export { routeTable } from "./routeTable.js";
export { issuerSetupActions, type IssuerSetup, type SetupAction, type SetupStep } from "./namespaces/setup.js";
export { withBigints, type WithBigints, type AmountKey } from "./amounts.js";
export type { UnsignedTx, Hex, Addressed } from "./types.js";
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookRemovedData,
  type LedgerEventName,
  type LedgerEventOf,
} from "./webhooks.js";
