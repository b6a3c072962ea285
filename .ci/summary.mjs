// Sums the test runners' own counts from a CI log into one plain closing line:
// mocha ("N passing", "N failing"), node:test ("# pass N", "# fail N").
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2], "utf8");
let passed = 0;
let failed = 0;
for (const line of log.split("\n")) {
  const text = line.replace(/^@[^:]+:[^:]+: /, "");
  let m;
  if ((m = /^\s+(\d+) passing\b/.exec(text))) passed += Number(m[1]);
  else if ((m = /^\s+(\d+) failing\b/.exec(text))) failed += Number(m[1]);
  else if ((m = /^# pass (\d+)$/.exec(text))) passed += Number(m[1]);
  else if ((m = /^# fail (\d+)$/.exec(text))) failed += Number(m[1]);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
