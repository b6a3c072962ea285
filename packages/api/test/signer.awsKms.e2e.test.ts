import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseEther } from "ethers";
import { setupE2E, type E2E } from "./helpers/e2e.js";
import { deploysWithExecutor, deskFinalizesWithExecutor } from "./helpers/executorE2E.js";
import { startFakeKms, useFakeAwsCredentials, type FakeKms } from "@points/testkit/signers";

// The executor key in AWS KMS on the Hardhat node (packages/api/README.md#keys), the real AWS
// SDK client talking to a local fake of KMS's API (@points/testkit/signers, fakeAwsKms.ts): the service deploys
// a program and the desk finalizes a redemption with it.
describe("signer: AWS KMS (the AWS SDK against a local KMS fake) end to end", () => {
  let kms: FakeKms;
  let e: E2E;
  let executor: string;
  let owner: Record<string, string>;

  before(async () => {
    useFakeAwsCredentials();
    kms = await startFakeKms({ "alias/executor": { keySpec: "ECC_SECG_P256K1" } });
    e = await setupE2E({}, () => ({ ...kms.env("alias/executor"), WORKER_POLL_MS: "50" }));
    executor = e.api.service.ctx.signers.addresses(31337)[0]!;
    assert.equal(executor, kms.address("alias/executor"));
    await (await e.who.executor.sendTransaction({ to: executor, value: parseEther("100") })).wait();
    owner = { authorization: `Bearer ${(await e.api.service.ctx.keys.create("owner", ["deploy", "read"])).key}` };
  });
  after(async () => {
    await e?.stop();
    await kms?.close();
  });

  it("deploy_withTheExecutorKeyInKms_deploysTheProgram_everyTransactionFromTheKeysAddress", async () => {
    await deploysWithExecutor(e, executor, owner, "kmsbrand");
    assert.ok(
      kms.signatures.some((s) => s.highS),
      "KMS answered some high-s signatures, made low",
    );
  });

  it("theDesk_finalizesARedemption_signedInKms", async () => {
    await deskFinalizesWithExecutor(e, executor);
  });
});
