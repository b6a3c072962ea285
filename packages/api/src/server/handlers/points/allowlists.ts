import { listTx } from "../factory/allowlists.js";

export const whitelistTransferAdd = listTx("points", "addToTransferWhitelist");
export const whitelistTransferRemove = listTx("points", "removeFromTransferWhitelist");
