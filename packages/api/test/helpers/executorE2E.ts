import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { id as roleId } from "ethers";
import { deskTypedData } from "@points/schema";
import { Factory__factory } from "@points/contracts";
import { expectOk, SP, type E2E } from "./e2e.js";
import { onboardingBody, waitForTask } from "./onboarding.js";

// What the end-to-end tests of every executor signer backend check (packages/api/README.md#keys): the service
// deploys a program and the desk finalizes a redemption, each transaction signed by the backend's key.

/** Onboards `brand` with the deploy key `owner`; every transaction of the task is `executor`'s, low s. */
export async function deploysWithExecutor(e: E2E, executor: string, owner: Record<string, string>, brand: string) {
  const res = await e.api.call(
    "POST",
    "/api/v1/client-onboarding/deploy",
    onboardingBody(brand, e.who.brand.address, { deskPolicy: "automatic" }),
    owner,
  );
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const task = await waitForTask(e.api, res.body.data.taskId, owner);
  assert.equal(task.status, "succeeded", JSON.stringify(task.error));
  const program = await e.api.service.ctx.programs.findByBrand("31337", brand);
  assert.ok(program);
  assert.ok(
    await Factory__factory.connect(program.factory, e.node.provider).hasRole(roleId("EXECUTOR_ROLE"), executor),
  );
  assert.ok((await e.node.provider.getTransactionCount(executor, "latest")) > 0);
  for (const stage of task.stages)
    for (const t of stage.transactions) {
      const tx = await e.node.provider.getTransaction(t.hash);
      assert.equal(tx!.from, executor);
      assert.ok(BigInt(tx!.signature.s) <= 2n ** 255n, "low s");
    }
}

/** The fixture's program on an automatic desk with `executor` as EXECUTOR_ROLE: a due request is finalized by it. */
export async function deskFinalizesWithExecutor(e: E2E, executor: string) {
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
  assert.ok((await e.node.provider.getTransactionCount(executor, "latest")) > nonce, "the executor's key sent it");
}
