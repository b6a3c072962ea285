import { z } from "zod";
import { defineRoute } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";

const tx = success(UnsignedTx);
const base = "/studio/sdk/v1/tx/psp";
/** A PSPVault build route: POST /studio/sdk/v1/tx/psp/<path>, signed by `from`. */
export const post = <B extends z.ZodType>(path: string, summary: string, body: B) =>
  defineRoute({ method: "post", path: `${base}/${path}`, summary, tag: "psp", auth: "key", body, response: tx });
