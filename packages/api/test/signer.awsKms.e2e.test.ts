import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { id as roleId, parseEther } from "ethers";
import { deskTypedData } from "@points/schema";
import { Factory__factory } from "@points/contracts";
import { expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";
import { startFakeKms, useFakeAwsCredentials, type FakeKms } from "./helpers/fakeKms.js";

const DEPLOY = "/api/v1/client-onboarding/deploy";

// The executor key in AWS KMS on the Hardhat node (packages/api/README.md#keys), the real AWS
// SDK client talking to a local fake of KMS's API (test/helpers/fakeKms.ts): the service deploys
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
    const res = await e.api.call(
      "POST",
      DEPLOY,
      onboardingBody("kmsbrand", e.who.brand.address, { deskPolicy: "automatic" }),
      owner,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const task = await waitForTask(e.api, res.body.data.taskId, owner);
    assert.equal(task.status, "succeeded", JSON.stringify(task.error));
    const program = await e.api.service.ctx.programs.findByBrand("31337", "kmsbrand");
    assert.ok(program);
    assert.ok(
      await Factory__factory.connect(program.factory, e.node.provider).hasRole(roleId("EXECUTOR_ROLE"), executor),
    );
    const sent = await e.node.provider.getTransactionCount(executor, "latest");
    assert.ok(sent > 0);
    assert.ok(
      kms.signatures.some((s) => s.highS),
      "KMS answered some high-s signatures, made low",
    );
    for (const stage of task.stages)
      for (const t of stage.transactions) {
        const tx = await e.node.provider.getTransaction(t.hash);
        assert.equal(tx!.from, executor);
        assert.ok(BigInt(tx!.signature.s) <= 2n ** 255n, "low s");
      }
  });

  it("theDesk_finalizesARedemption_signedInKms", async () => {
    const { brand, alice, bob } = e.who;
    const mine = await e.api.service.ctx.keys.create("acme tenant");
    const tenant = { authorization: `Bearer ${mine.key}` };
    await e.api.service.ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ($1, $2, 'h', '{}', $3, '31337', 'succeeded', $3)`,
      [randomUUID(), mine.info.id, e.record.brand],
    );
    await (await e.c.factory.connect(brand).grantRole(roleId("EXECUTOR_ROLE"), executor)).wait();
    await e.giveSp(alice.address, SP(10));
    await (await e.c.factory.connect(brand).addToRedeemWhitelist(alice.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(bob.address)).wait();
    await (await e.c.points.connect(alice).approve(e.record.factory, SP(10))).wait();
    const signedUntil = Math.floor(Date.now() / 1000) + 600;
    const t = deskTypedData(31337, e.record.factory, { kind: "policy", policy: "automatic", version: 0, signedUntil });
    const body = {
      policy: "automatic",
      version: 0,
      manager: brand.address,
      signature: await brand.signTypedData(t.domain, t.types, t.message),
      signedUntil,
    };
    const path = `/api/v1/programs/${e.record.brand}/redemption-desk`;
    expectOk("redemptionDeskPolicySet", await e.api.call("PUT", `${path}/policy`, body, tenant));
    const id = (await e.c.factory.redeemRequestCount()) + 1n;
    await (await e.c.factory.connect(alice).requestRedeem(e.usdc, bob.address, SP(1), false)).wait();
    await e.node.increaseTime(3601);
    await e.node.mine();
    const before = await e.c.usdc.balanceOf(bob.address);
    const nonce = await e.node.provider.getTransactionCount(executor, "latest");
    for (let i = 0; Number((await e.c.factory.getRedeemRequest(id)).status) !== 2; i++) {
      assert.ok(i < 600, "the desk finalizes the request");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await e.c.usdc.balanceOf(bob.address)) - before, 10n ** 6n);
    assert.ok((await e.node.provider.getTransactionCount(executor, "latest")) > nonce, "the KMS key sent it");
  });
});
