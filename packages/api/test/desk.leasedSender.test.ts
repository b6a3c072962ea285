import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import type { TransactionReceipt, TransactionRequest } from "ethers";
import type { Ctx } from "../src/core/context.js";
import type { Engines } from "../src/core/engine/registry.js";
import type { TaskRepo } from "../src/core/onboarding/tasks.js";
import { ExecutorLeaseHold, leasedSender } from "../src/workers/desk/lease.js";
import { engineSender, type ExecutorSender } from "../src/workers/desk/sender.js";

const CHAIN = "31337";
const EXECUTOR = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const TX: TransactionRequest = { to: "0x0000000000000000000000000000000000000001", data: "0x", gasLimit: 100_000n };
const RECEIPT = { status: 1, gasUsed: 21_000n, hash: "0x01" } as unknown as TransactionReceipt;
const silent = pino({ level: "silent" });

/** The desk's hold on the executor lease of one chain, granted by a fake task repository. */
async function heldLease() {
  const tasks = { leaseExecutor: async () => true } as unknown as TaskRepo;
  // An hour's lease: only the test ends the hold, never the clock.
  const hold = new ExecutorLeaseHold(tasks, "worker-a", [CHAIN], 3_600_000, silent);
  await hold.start();
  assert.equal(hold.holds(CHAIN), true);
  return hold;
}

// The desk checked the executor lease once, at the start of a program's run, and then sent
// whatever that run decided however long it took. A pass left running past the shutdown's bound
// (JOB_DRAIN_MS), or one whose hold ended mid-run, could then sign with the executor's key after
// the worker gave the lease back and a peer took it: two processes on one key's nonces.
describe("redemption desk: nothing is signed once this process's executor lease hold has ended", () => {
  it("aSend_afterTheHoldEnded_isRefused_andNeverReachesTheEngine", async () => {
    const hold = await heldLease();
    const sent: TransactionRequest[] = [];
    const inner: ExecutorSender = {
      address: () => EXECUTOR,
      send: async (_chain, tx) => (sent.push(tx), RECEIPT),
    };
    const desk = leasedSender(inner, hold);
    assert.equal(desk.address(CHAIN), EXECUTOR);
    await hold.stop(); // the hold ended (shutdown) after the run's check
    assert.equal(desk.address(CHAIN), undefined);
    await assert.rejects(desk.send(CHAIN, TX), { code: "EXECUTOR_LEASE_NOT_HELD" });
    assert.deepEqual(sent, [], "nothing reached the engine");
  });

  it("aSend_waitingForItsTurnInTheEngine_whileTheHoldEnds_isNotSigned", async () => {
    const hold = await heldLease();
    // The engine takes the desk's transaction after another send, or once the key is funded again.
    let yourTurn!: () => void;
    const turn = new Promise<void>((resolve) => (yourTurn = resolve));
    const signed: TransactionRequest[] = [];
    const engine = {
      from: EXECUTOR,
      async sendBatch(_count: number, build: (first: number) => Promise<TransactionRequest[]>) {
        await turn;
        signed.push(...(await build(7)));
        return [{ hash: "0x02", nonce: 7 }];
      },
      wait: async () => RECEIPT,
    };
    const engines = { get: () => engine } as unknown as Engines;
    // The transaction carries its gas limit: the sender asks the chain for nothing.
    const desk = leasedSender(engineSender({} as Ctx, engines), hold);
    const sending = desk.send(CHAIN, TX);
    await hold.stop();
    yourTurn();
    await assert.rejects(sending, { code: "EXECUTOR_LEASE_NOT_HELD" });
    assert.deepEqual(signed, [], "the engine signed nothing for a hold that had ended");
  });
});
