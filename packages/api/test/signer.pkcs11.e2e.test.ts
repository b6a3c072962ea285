import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseEther } from "ethers";
import { setupE2E, type E2E } from "./helpers/e2e.js";
import { deploysWithExecutor, deskFinalizesWithExecutor } from "./helpers/executorE2E.js";
import { createSoftHsm, type SoftHsm } from "@points/testkit/signers";

// The executor key inside SoftHSM2 on the Hardhat node (packages/api/README.md#keys): the
// service deploys a program and the desk finalizes a redemption with it.
describe("signer: PKCS#11 (SoftHSM2) end to end", () => {
  let hsm: SoftHsm;
  let e: E2E;
  let executor: string;
  let owner: Record<string, string>;

  before(async () => {
    hsm = createSoftHsm([{ label: "executor", curve: "secp256k1" }]);
    e = await setupE2E({}, () => ({ ...hsm.env("executor"), WORKER_POLL_MS: "50" }));
    executor = e.api.service.ctx.signers.addresses(31337)[0]!;
    await (await e.who.executor.sendTransaction({ to: executor, value: parseEther("100") })).wait();
    owner = { authorization: `Bearer ${(await e.api.service.ctx.keys.create("owner", ["deploy", "read"])).key}` };
  });
  after(async () => {
    await e?.stop();
    hsm?.remove();
  });

  it("deploy_withTheExecutorKeyInTheToken_deploysTheProgram_everyTransactionFromTheTokensAddress", async () => {
    await deploysWithExecutor(e, executor, owner, "hsmbrand");
  });

  it("theDesk_finalizesARedemption_signedInTheToken", async () => {
    await deskFinalizesWithExecutor(e, executor);
  });
});
