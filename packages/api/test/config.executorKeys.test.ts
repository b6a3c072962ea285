import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { configProblems } from "./helpers/config.js";
import { loadConfig } from "../src/index.js";

const [A, B, C] = ["1", "2", "3"].map((d) => `0x${d.repeat(64)}`);
const CHAINS = JSON.stringify([{ chainId: 8453, name: "Base", rpcUrl: "https://rpc.example.com" }]);

// Several executor keys per chain (docs/architecture.md#transaction-engine): one nonce lane each.
describe("config: EXECUTOR_PRIVATE_KEYS", () => {
  it("theExecutorKeyComesFirst_thenTheExtraKeysInOrder_eachOnce", () => {
    const config = loadConfig({ CHAINS, EXECUTOR_PRIVATE_KEY: A, EXECUTOR_PRIVATE_KEYS: `${B},${C},${A}` });
    assert.deepEqual(config.executorKeys(8453), [A, B, C]);
    assert.equal(config.executorKey(8453), A);
  });

  it("withoutExtraKeys_everyChainHasOneLane_theExecutorKey", () => {
    assert.deepEqual(loadConfig({ CHAINS, EXECUTOR_PRIVATE_KEY: A }).executorKeys(8453), [A]);
    assert.deepEqual(loadConfig({ CHAINS, EXECUTOR_PRIVATE_KEY: A }).executorKeys(1), [A]);
  });

  it("attack_extraKeysAlone_doNotStandInForTheExecutorKey_andTheServiceRefusesToStart", () => {
    const lines = configProblems({ CHAINS, EXECUTOR_PRIVATE_KEYS: B });
    assert.ok(
      lines.some((l) => l.startsWith("EXECUTOR_PRIVATE_KEY: is required for chain 8453")),
      lines.join("\n"),
    );
  });

  it("aMalformedList_isRefusedWithoutEchoingTheKeys", () => {
    for (const bad of [`${B},`, `${B};${C}`, "0x1234", `${B}, ${C}`]) {
      const lines = configProblems({ CHAINS, EXECUTOR_PRIVATE_KEY: A, EXECUTOR_PRIVATE_KEYS: bad });
      assert.deepEqual(lines, ["EXECUTOR_PRIVATE_KEYS: must be 1 to 16 comma-separated 32-byte hex private keys"]);
      assert.ok(!lines.join("").includes(B.slice(2)), "no key in the message");
    }
  });

  it("theKeysNeverAppearInTheSerialisedConfiguration", () => {
    const config = loadConfig({ CHAINS, EXECUTOR_PRIVATE_KEY: A, EXECUTOR_PRIVATE_KEYS: `${B},${C}` });
    const text = JSON.stringify(config);
    for (const k of [A, B, C]) assert.ok(!text.includes(k.slice(2)), "a key in the serialised configuration");
  });
});
