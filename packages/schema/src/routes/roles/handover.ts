import { z } from "zod";
import { Address, contractNameSchema } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { buildEnvelope } from "../build/common.js";

/**
 * The two-step DEFAULT_ADMIN_ROLE transfer, one contract per call (docs/deployment.md#admin-handover):
 * a Safe runs the four contracts' calls as one batch (POST /api/v1/safe/batch), a wallet signs four.
 */
export const HANDOVER_CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;
const HandoverContract = contractNameSchema(HANDOVER_CONTRACTS);

const handoverRoute = routeFamily({ method: "post", tag: "roles", auth: "key", response: success(UnsignedTx) });

export const adminHandoverBegin = handoverRoute({
  path: "/api/v1/roles/admin-handover/begin",
  summary: "Build beginDefaultAdminTransfer(newAdmin) for the contract's admin (key): a wallet or a Safe",
  body: buildEnvelope(
    z.strictObject({
      contract: HandoverContract,
      newAdmin: Address.meta({ description: "The next admin: a wallet or a Safe" }),
    }),
  ),
});

export const adminHandoverAccept = handoverRoute({
  path: "/api/v1/roles/admin-handover/accept",
  summary: "Build acceptDefaultAdminTransfer() for the pending admin (key) once the admin delay has passed",
  body: buildEnvelope(z.strictObject({ contract: HandoverContract })),
});

export const adminHandoverCancel = handoverRoute({
  path: "/api/v1/roles/admin-handover/cancel",
  summary: "Build cancelDefaultAdminTransfer() for the contract's admin (key)",
  body: buildEnvelope(z.strictObject({ contract: HandoverContract })),
});
