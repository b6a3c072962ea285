import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { COMMAND, gasBlock, README, readBlock, replaceBlock } from "../bench/readme.js";
import { runBench } from "../bench/runs.js";

describe("README: the deployment benchmark's gas table", () => {
  it("equals the gas the benchmark's runs cost today (a block per transaction: same gas, no waiting)", async () => {
    const measured = gasBlock(await runBench());
    const written = readBlock(readFileSync(README, "utf8"), "gas-table");
    assert.equal(written, measured, `the README's gas table is stale: run \`${COMMAND}\``);
  });

  it("rewrites only the text between its markers, and refuses missing or repeated markers", () => {
    const text = "a\n<!-- t:start -->\nold\n<!-- t:end -->\nb\n";
    assert.equal(replaceBlock(text, "t", "new"), "a\n<!-- t:start -->\n\nnew\n\n<!-- t:end -->\nb\n");
    assert.equal(readBlock(text, "t"), "old");
    const refused = /^Error: expected one <!-- t:start --> followed by one <!-- t:end -->$/;
    assert.throws(() => readBlock("<!-- t:end --> <!-- t:start -->", "t"), refused);
    assert.throws(() => readBlock("<!-- t:start -->", "t"), refused);
    assert.throws(() => replaceBlock(`${text}${text}`, "t", "new"), refused);
  });
});
