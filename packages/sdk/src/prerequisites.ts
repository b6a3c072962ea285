import type { Signer } from "ethers";
import { PointsApiError } from "./errors.js";
import type { PreparedTx } from "./types.js";
import type { WaitOptions } from "./chain.js";

/**
 * Builds with `build`; while the API answers 422 with a transaction that must come first (an
 * ERC-20 approval), sends that with `signer` and builds again, at most `max` times (default 3).
 * Resolves to the built transaction, ready to send.
 */
export async function withPrerequisites(
  build: () => Promise<PreparedTx>,
  signer: Signer,
  opts: WaitOptions & { max?: number } = {},
): Promise<PreparedTx> {
  for (let sent = 0; ; sent++) {
    try {
      return await build();
    } catch (e) {
      if (!(e instanceof PointsApiError && e.prerequisite) || sent >= (opts.max ?? 3)) throw e;
      await e.prerequisite.send(signer, opts);
    }
  }
}
