import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { HDNodeWallet, Wallet } from "ethers";
import {
  classifySendError,
  NODE_ERROR_TABLE,
  rpcAnswer,
  SEND_ERROR_ACTIONS,
  type SendErrorClass,
} from "@points/contracts/program/nodeErrors";
import { NODE_KINDS, startNode, type DevNode, type NodeKind } from "@points/testkit";
import { testEngine } from "./helpers/engine.js";

/** One JSON-RPC answer, as ethers' provider.send throws it. */
const answer = (code: number, message: string) => Object.assign(new Error(message), { error: { code, message } });

describe("node errors: one table of every node's send refusals, one class each", () => {
  for (const [i, row] of NODE_ERROR_TABLE.entries()) {
    it(`row${i}_${row.node}_${row.class}_isClassifiedAs_${row.class}`, () => {
      assert.equal(classifySendError(answer(row.code, row.message)), row.class, row.message);
    });
  }

  it("everyClass_hasOneAction_andEveryActionedClassHasARow", () => {
    const classes = Object.keys(SEND_ERROR_ACTIONS) as SendErrorClass[];
    for (const c of classes.filter((c) => c !== "unknown"))
      assert.ok(
        NODE_ERROR_TABLE.some((r) => r.class === c),
        `no row of class ${c}`,
      );
    assert.deepEqual(SEND_ERROR_ACTIONS.unknown, { action: "fail", code: "TX_REJECTED" });
  });

  it("anUnknownText_isUnknown_andFails_neverRetriedForever", () => {
    assert.equal(classifySendError(answer(-32000, "something new")), "unknown");
  });

  it("theCodesThatMeanOneThingEverywhere_classifyWithoutText", () => {
    assert.equal(classifySendError(answer(-32005, "")), "rate_limited");
    assert.equal(classifySendError(answer(-32601, "")), "method_not_found");
  });
});

/**
 * The rows marked "observed" are what the nodes answer: each refusal is provoked on a real Hardhat node and a real anvil,
 * and its class is the one the table gives that node.
 */
for (const kind of NODE_KINDS) {
  describe(`node errors: what ${kind} answers, provoked`, () => {
    let node: DevNode;
    let base: bigint;
    const seen = new Map<SendErrorClass, string>();
    before(async () => {
      node = await startNode({ kind });
      base = (await node.provider.getBlock("latest"))!.baseFeePerGas!;
    });
    after(() => node?.stop());

    const sign = (w: Wallet | HDNodeWallet, tx: Record<string, unknown>) =>
      w.signTransaction({
        chainId: 31337,
        type: 2,
        to: node.wallets[9]!.address,
        value: 1n,
        gasLimit: 21_000,
        maxFeePerGas: base * 2n,
        maxPriorityFeePerGas: 1n,
        ...tx,
      });
    /** Sends `raw`; the class of the refusal, or "accepted". */
    const send = async (raw: string): Promise<SendErrorClass | "accepted"> => {
      try {
        await node.provider.send("eth_sendRawTransaction", [raw]);
        return "accepted";
      } catch (e) {
        const cls = classifySendError(e);
        seen.set(cls, rpcAnswer(e)!.message);
        return cls;
      }
    };

    it("alreadyKnown_nonceTooLow_replacementUnderpriced_insufficientFunds_gasLimits_methodNotFound", async () => {
      const w = node.wallets[7]!;
      await node.setAutomine(false);
      try {
        const nonce = await node.provider.getTransactionCount(w.address);
        const first = await sign(w, { nonce });
        assert.equal(await send(first), "accepted");
        assert.equal(await send(first), "already_known");
        assert.equal(await send(await sign(w, { nonce, value: 2n })), "replacement_underpriced");
        await node.mine();
        assert.equal(await send(await sign(w, { nonce })), "nonce_too_low");
        assert.equal(await send(await sign(Wallet.createRandom(), { nonce: 0 })), "insufficient_funds");
        assert.equal(await send(await sign(w, { nonce: nonce + 1, gasLimit: 100 })), "intrinsic_gas_too_low");
        assert.equal(await send(await sign(w, { nonce: nonce + 1, gasLimit: 70_000_000 })), "exceeds_block_gas_limit");
        await assert.rejects(node.provider.send("eth_noSuchMethod", []), (e) => {
          assert.equal(classifySendError(e), "method_not_found");
          return true;
        });
      } finally {
        await node.setAutomine(true);
      }
      // Each observed row of this node is the text the node gave.
      for (const row of NODE_ERROR_TABLE.filter((r) => r.node === kind && r.source === "observed")) {
        if (row.class === "method_not_found" || row.class === "fee_below_base_fee") continue; // next test, below
        assert.ok(seen.has(row.class), `${kind} never answered ${row.class}`);
      }
    });

    it("aFeeUnderTheNextBaseFee_isRefusedAsFeeBelowBaseFee_whileAutomining", async () => {
      const w = node.wallets[8]!;
      const nonce = await node.provider.getTransactionCount(w.address);
      assert.equal(
        await send(await sign(w, { nonce, maxFeePerGas: base / 4n, maxPriorityFeePerGas: 1n })),
        "fee_below_base_fee",
      );
    });
  });
}

/** The engine treats a price refusal as "reprice", never as the end of a task (anvil refuses where Hardhat queues). */
for (const kind of NODE_KINDS) {
  describe(`engine on ${kind}: a transaction under a base-fee spike`, () => {
    let node: DevNode;
    before(async () => {
      node = await startNode({ kind });
    });
    after(() => node?.stop());

    it("isRepricedAndMined_neverFailsWithTX_REJECTED", async () => {
      const { engine, wallet } = testEngine(node.url, 5, { replaceAfterBlocks: 2 });
      try {
        const start = await node.provider.getTransactionCount(wallet.address);
        const base = (await node.provider.getBlock("latest"))!.baseFeePerGas!;
        await node.setAutomine(false);
        // The next block costs 50 times the latest base fee, which the engine prices from (twice it).
        await node.setNextBaseFee(base * 50n);
        const [sent] = await engine.sendBatch(
          1,
          async () => [{ to: node.wallets[9]!.address, value: 1n, gasLimit: 21_000n }],
          () => {},
        );
        await node.setIntervalMining(1000);
        const receipt = await engine.wait(sent!.nonce, "transfer");
        assert.equal(receipt.status, 1);
        assert.equal(await node.provider.getTransactionCount(wallet.address), start + 1);
      } finally {
        engine.stop();
        await node.setIntervalMining(0);
        await node.setAutomine(true);
      }
    });
  });
}
