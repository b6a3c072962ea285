// `@points/sdk/client`: the client alone, for a page that reads through the API. Nothing here
// loads ethers until a write, a bulk send or the issuer needs it (import() on first use), so a
// bundler that splits chunks ships a read without it. Everything is also exported by the main entry.
export { createClient, type PointsClient } from "./client.js";
export { callRoute, fetchRoute, type ClientOptions, type RouteInput } from "./http.js";
export { PointsApiError, type PointsErrorCode } from "./errors.js";
export { isPointsError, type ErrorDetails, type DetailsOf, type DecodedRevert } from "./details.js";
export type {
  RequestInput,
  ResponseData,
  WriteOptions,
  ReadOptions,
  CallOptions,
  PublicRouteName as RouteName,
  RouteEntry,
  PreparedTx,
  UnsignedTx,
  Hex,
  Addressed,
} from "./types.js";
