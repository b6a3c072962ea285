// Sums the test runners' own counts from a CI log into one plain closing line:
// mocha ("N passing", "N failing"), node:test ("# pass N", "# fail N").
// Above it, every failure is repeated with its error, so a reader who sees only the log's tail still learns which
// test failed and why (a long log is often cut to its end).
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2], "utf8");
const lines = log.split("\n");
let passed = 0;
let failed = 0;
const failures = [];
for (let i = 0; i < lines.length; i++) {
  const task = /^(@[^:]+:[^:]+): /.exec(lines[i])?.[1] ?? "";
  const text = lines[i].replace(/^@[^:]+:[^:]+: /, "");
  let m;
  if ((m = /^\s+(\d+) passing\b/.exec(text))) passed += Number(m[1]);
  else if ((m = /^\s+(\d+) failing\b/.exec(text))) {
    failed += Number(m[1]);
    // mocha prints each failure's title and error right after the count.
    failures.push(`${task} mocha:`, ...following(i, 40, () => false));
  } else if ((m = /^# pass (\d+)$/.exec(text))) passed += Number(m[1]);
  else if ((m = /^# fail (\d+)$/.exec(text))) failed += Number(m[1]);
  else if (/^\s*not ok \d+ - /.test(text)) {
    // node:test: the failing test's line, then its YAML block up to the block's end ("...").
    failures.push(`${task} ${text.trim()}`, ...following(i, 25, (t) => /^\s*(\.\.\.$|ok \d|not ok \d|# )/.test(t)));
  }
}

function following(at, max, isEnd) {
  const out = [];
  for (let j = at + 1; j < Math.min(lines.length, at + 1 + max); j++) {
    const t = lines[j].replace(/^@[^:]+:[^:]+: /, "");
    if (isEnd(t)) break;
    if (/duration_ms|type: '|^\s*---$/.test(t)) continue;
    out.push(`    ${t.trimEnd()}`);
  }
  return out;
}

if (failures.length > 0) {
  console.log("failures (repeated from above):");
  for (const line of failures.slice(0, 400)) console.log(line);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
