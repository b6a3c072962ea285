import { Contract, id } from "ethers";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import type { Engines } from "./registry.js";

const OPERATOR_ROLE = id("OPERATOR_ROLE");
const ABI = [
  "function hasRole(bytes32 role, address account) view returns (bool)",
  "function grantRole(bytes32 role, address account)",
];

/**
 * Makes `operator` (an executor key other than the first) an operator of the chain's
 * ProgramFactory, so it may deploy programs: the first key, the ProgramFactory's admin, grants
 * OPERATOR_ROLE through its own lane, once (docs/architecture.md#transaction-engine).
 */
export async function ensureOperator(
  ctx: Ctx,
  engines: Engines,
  chainId: string,
  programFactory: string,
  operator: string,
): Promise<void> {
  const provider = ctx.chains.get(chainId).provider;
  const pf = new Contract(programFactory, ABI, provider);
  if ((await pf.getFunction("hasRole")(OPERATOR_ROLE, operator)) as boolean) return;
  await engines.alone(`${chainId}:operator:${operator}`, async () => {
    if ((await pf.getFunction("hasRole")(OPERATOR_ROLE, operator)) as boolean) return;
    const admin = engines.get(chainId);
    const data = pf.interface.encodeFunctionData("grantRole", [OPERATOR_ROLE, operator]);
    const gasLimit = await provider.estimateGas({ to: programFactory, data, from: admin.from }).catch(() => {
      throw new ApiError(
        "INTERNAL",
        `executor key ${operator} is not an operator of ProgramFactory ${programFactory} and the first executor key ${admin.from} cannot grant OPERATOR_ROLE: grant it, or remove the key from EXECUTOR_PRIVATE_KEYS`,
      );
    });
    const [sent] = await admin.sendBatch(
      1,
      async () => [{ to: programFactory, data, gasLimit }],
      () => undefined,
    );
    if (!sent) throw new ApiError("INTERNAL", `the engine sent no OPERATOR_ROLE grant for ${operator}`);
    const receipt = await admin.wait(sent.nonce, `grant OPERATOR_ROLE to ${operator}`);
    if (receipt.status !== 1) throw new ApiError("INTERNAL", `granting OPERATOR_ROLE to ${operator} reverted`);
    ctx.logger.info({ chainId, operator }, "engine: an executor key became an operator of the ProgramFactory");
  });
}
