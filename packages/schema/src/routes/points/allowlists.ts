import { whitelistRoute } from "../factory/allowlists.js";

export const whitelistTransferAdd = whitelistRoute(
  "transfer",
  "add",
  "points.addToTransferWhitelist(account); DEFAULT_ADMIN_ROLE on Points",
);
export const whitelistTransferRemove = whitelistRoute(
  "transfer",
  "remove",
  "points.removeFromTransferWhitelist(account); DEFAULT_ADMIN_ROLE on Points",
);
