import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import { DeployerError, verifyProgram, type ProgramRecord } from "../src/index.js";
import { at, deployAcme } from "./helpers/fixture.js";

/** verifyProgram must fail loudly, listing every difference between the record and the chain. */
describe("verifyProgram: every difference is reported", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let program: ProgramRecord;

  before(async () => ({ node, executor, brand, program } = await deployAcme()));
  after(() => node.stop());

  function failsWith(...patterns: RegExp[]) {
    return (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "VERIFY_FAILED");
      for (const p of patterns) assert.match(e.message, p);
      return true;
    };
  }

  it("verify_reportsAWrongImplementationSlot_andAWrongAdmin_together", async () => {
    const wrong = structuredClone(program);
    wrong.contracts.points!.implementation = program.contracts.factory!.implementation;
    wrong.admin = executor.address;
    await assert.rejects(
      verifyProgram(wrong, node.provider),
      failsWith(
        new RegExp(
          `points: the chain runs implementation ${program.contracts.points!.implementation}, ` +
            `the record has ${program.contracts.factory!.implementation}`,
        ),
        new RegExp(`factory: the chain has admin ${brand.address}, the record has ${executor.address}`),
      ),
    );
  });

  it("verify_reportsTheExecutorHoldingAnyRoleButExecutor", async () => {
    const psp = at(program, "pspVault", brand);
    await (await psp.grantRole(await psp.MANAGER_ROLE(), executor.address)).wait();
    try {
      await assert.rejects(
        verifyProgram(program, node.provider),
        failsWith(/pspVault: the executor .* holds MANAGER_ROLE; it may hold EXECUTOR_ROLE only/),
      );
    } finally {
      await (await psp.revokeRole(await psp.MANAGER_ROLE(), executor.address)).wait();
    }
    await verifyProgram(program, node.provider);
  });

  it("verify_acceptsAManagersLaterRevokeAndGrantOfExecutorRole_theDesksToDecide", async () => {
    const factory = at(program, "factory", brand);
    const role = await factory.EXECUTOR_ROLE();
    await (await factory.revokeRole(role, executor.address)).wait();
    try {
      await verifyProgram(program, node.provider);
      await (await factory.grantRole(role, brand.address)).wait();
      await verifyProgram(program, node.provider);
      await (await factory.revokeRole(role, brand.address)).wait();
    } finally {
      await (await factory.grantRole(role, executor.address)).wait();
    }
    await verifyProgram(program, node.provider);
  });

  it("verify_reportsAnUnrecordedPendingAdminTransfer", async () => {
    const points = at(program, "points", brand);
    await (await points.beginDefaultAdminTransfer(node.wallets[4].address)).wait();
    try {
      await assert.rejects(
        verifyProgram(program, node.provider),
        failsWith(
          new RegExp(
            `points: the chain has a pending admin transfer to ${node.wallets[4].address}, ` +
              "the record has no pending admin transfer",
          ),
        ),
      );
    } finally {
      await (await points.cancelDefaultAdminTransfer()).wait();
    }
  });

  it("verify_reportsACancelledHandover_chainFirst_thenRecord", async () => {
    const recorded = structuredClone(program);
    const pending = node.wallets[4].address;
    recorded.pendingAdmin = { newAdmin: pending, schedules: {}, txHashes: [], at: new Date().toISOString() };
    await assert.rejects(
      verifyProgram(recorded, node.provider),
      failsWith(
        new RegExp(
          `points: the chain has no pending admin transfer, the record has a pending admin transfer to ${pending}`,
        ),
      ),
    );
  });

  it("verify_reportsTransferRestrictedAndPausedFlags_thatDifferFromBirth", async () => {
    const points = at(program, "points", brand);
    const factory = at(program, "factory", brand);
    await (await points.setTransferRestricted(false)).wait();
    await (await factory.pause()).wait();
    try {
      await assert.rejects(
        verifyProgram(program, node.provider),
        failsWith(
          /points\.transferRestricted: the chain has false, the record has true/,
          /factory\.paused: the chain has true, the record has false/,
        ),
      );
    } finally {
      await (await points.setTransferRestricted(true)).wait();
      await (await factory.unpause()).wait();
    }
    await verifyProgram(program, node.provider);
  });

  it("verify_reportsADeploymentTransactionThatGrantedSomethingElse", async () => {
    const wrong = structuredClone(program);
    wrong.executor = node.wallets[5].address;
    await assert.rejects(
      verifyProgram(wrong, node.provider),
      failsWith(
        /deployment granted an unexpected role: factory EXECUTOR_ROLE to/,
        /deployment did not grant factory EXECUTOR_ROLE to/,
      ),
    );
  });
});
