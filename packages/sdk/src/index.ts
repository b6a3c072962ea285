export { createClient, type PointsClient } from "./client.js";
export type { ClientOptions } from "./http.js";
export { PointsApiError, type PointsErrorCode } from "./errors.js";
export { prepare, type PreparedTx } from "./transaction.js";
export type { RequestInput, ResponseData, WriteOptions, ReadOptions } from "./types.js";
export type { RedeemScope } from "./namespaces/api.js";
export { routes, type RouteName, type UnsignedTx } from "@points/schema";
