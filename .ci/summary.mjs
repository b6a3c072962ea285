// Sums the test runners' own counts from a CI log into one plain closing line:
// mocha ("N passing", "N failing"), node:test ("# pass N", "# fail N"), forge ("N tests passed, M failed").
// Above it, every failure is repeated with its error, so a reader who sees only the log's tail still learns which
// test failed and why (a long log is often cut to its end), and a table gives each turbo task its time, its counts and
// its outcome, naming every task that did not run (turbo's run summary, written by `turbo run --summarize`).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const [logFile, runsSince] = process.argv.slice(2);
const lines = readFileSync(logFile, "utf8").split("\n");
let passed = 0;
let failed = 0;
const failures = [];
/** Counts per turbo task ("@points/api#test"), from the lines turbo prefixes with the task's name. */
const perTask = new Map();
const count = (task, key, n) => {
  const c = perTask.get(task) ?? { passed: 0, failed: 0 };
  c[key] += n;
  perTask.set(task, c);
};
for (let i = 0; i < lines.length; i++) {
  const prefix = /^(@[^:]+):(\S+?): /.exec(lines[i]);
  const task = prefix ? `${prefix[1]}#${prefix[2]}` : "";
  const text = lines[i].replace(/^@[^:]+:\S+?: /, "");
  let m;
  if ((m = /^\s+(\d+) passing\b/.exec(text))) {
    passed += Number(m[1]);
    count(task, "passed", Number(m[1]));
  } else if ((m = /^\s+(\d+) failing\b/.exec(text))) {
    failed += Number(m[1]);
    count(task, "failed", Number(m[1]));
    // mocha prints each failure's title and error right after the count.
    failures.push(`${task} mocha:`, ...following(i, 40, () => false, task));
  } else if ((m = /^Ran \d+ test suites? .*: (\d+) tests? passed, (\d+) failed/.exec(text))) {
    // forge: "Ran 2 test suites in 25.01s (48.99s CPU time): 2 tests passed, 0 failed, 0 skipped (2 total tests)"
    passed += Number(m[1]);
    failed += Number(m[2]);
    count(task, "passed", Number(m[1]));
    count(task, "failed", Number(m[2]));
    if (Number(m[2]) > 0) failures.push(`${task} forge:`, ...following(i, 40, () => false, task));
  } else if ((m = /^# pass (\d+)$/.exec(text))) {
    passed += Number(m[1]);
    count(task, "passed", Number(m[1]));
  } else if ((m = /^# fail (\d+)$/.exec(text))) {
    failed += Number(m[1]);
    count(task, "failed", Number(m[1]));
  } else if (/^\s*not ok \d+ - /.test(text)) {
    // node:test: the failing test's line, then its YAML block up to the block's end ("...").
    failures.push(
      `${task} ${text.trim()}`,
      ...following(i, 25, (t) => /^\s*(\.\.\.$|ok \d|not ok \d|# )/.test(t), task),
    );
  }
}

/** Up to `max` lines of `task` after line `at` (two tasks run at once, so their lines interleave). */
function following(at, max, isEnd, task) {
  const out = [];
  for (let j = at + 1, taken = 0; j < lines.length && taken < max; j++) {
    const prefix = /^(@[^:]+):(\S+?): /.exec(lines[j]);
    if (prefix && `${prefix[1]}#${prefix[2]}` !== task) continue;
    taken++;
    const t = lines[j].replace(/^@[^:]+:\S+?: /, "");
    if (isEnd(t)) break;
    if (/duration_ms|type: '|^\s*---$/.test(t)) continue;
    out.push(`    ${t.trimEnd()}`);
  }
  return out;
}

/** The newest turbo run summary written after `since` (ms), or undefined. */
function runSummary(since) {
  const dir = ".turbo/runs";
  let newest;
  try {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      const t = statSync(p).mtimeMs;
      if (f.endsWith(".json") && t >= since && (!newest || t > newest.t)) newest = { p, t };
    }
  } catch {
    return undefined;
  }
  return newest && JSON.parse(readFileSync(newest.p, "utf8"));
}

/** Every task `pnpm test` plans (turbo's dry run of the same tasks), so a task that never started is named too. */
function plannedTasks() {
  const script = JSON.parse(readFileSync("package.json", "utf8")).scripts.test;
  const tasks = /turbo run ((?:\w[\w:-]* ?)+)/.exec(script)?.[1].trim().split(" ") ?? [];
  const dry = spawnSync("pnpm", ["exec", "turbo", "run", ...tasks, "--dry=json"], { encoding: "utf8" });
  try {
    return JSON.parse(dry.stdout).tasks.filter((t) => t.command !== "<NONEXISTENT>");
  } catch {
    return [];
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const summary = runSummary(Number(runsSince ?? 0));
let notRun = 0;
let failedTasks = 0;
if (summary) {
  console.log("tasks (time, tests passed/failed, outcome):");
  const ran = new Set(summary.tasks.map((t) => t.taskId));
  const missing = plannedTasks().filter((t) => !ran.has(t.taskId));
  const rows = [...summary.tasks, ...missing].sort(
    (a, b) => (a.execution?.startTime ?? Infinity) - (b.execution?.startTime ?? Infinity),
  );
  for (const t of rows) {
    const e = t.execution;
    const c = perTask.get(t.taskId);
    const tests = c ? `${c.passed}/${c.failed}` : "";
    let outcome;
    if (t.cache?.status === "HIT") outcome = "cached";
    else if (!e || e.exitCode === undefined || e.exitCode === null) {
      outcome = "DID NOT RUN";
      notRun++;
    } else if (e.exitCode === 0) outcome = "ok";
    else {
      outcome = `FAILED (exit ${e.exitCode})`;
      failedTasks++;
    }
    const time = e?.endTime ? seconds(e.endTime - e.startTime) : "";
    console.log(`  ${t.taskId.padEnd(28)} ${time.padStart(7)} ${tests.padStart(10)}  ${outcome}`);
  }
  const { startTime, endTime } = summary.execution;
  console.log(`  turbo time ${seconds(endTime - startTime)}`);
} else console.log("turbo wrote no run summary: the task table is missing (did turbo start?)");

if (failures.length > 0) {
  console.log("failures (repeated from above):");
  for (const line of failures.slice(0, 400)) console.log(line);
}
const tasksLine = [failedTasks && `${failedTasks} task(s) failed`, notRun && `${notRun} task(s) did not run`].filter(
  Boolean,
);
console.log(`tests: ${passed} passed, ${failed} failed${tasksLine.length ? `; ${tasksLine.join(", ")}` : ""}`);
