import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { LedgerSubscriber } from "../ledger/events.js";

/**
 * The metrics this process counts as things happen (README.md#metrics-and-alerts): one registry
 * per process, like the process it measures. Gauges that read the database or the chain are
 * collected at scrape time instead (./collect.ts), so nothing here adds a query to a hot path.
 */
export const processRegistry = new Registry();
// The event-loop lag is sampled every 100 ms, not prom-client's default 10 ms: that timer woke the
// process 100 times a second and cost an idle instance about half a point of a core (bench:idle).
collectDefaultMetrics({ register: processRegistry, prefix: "points_", eventLoopMonitoringPrecision: 100 });

/** Seconds; the build routes answer in tens of milliseconds, onboarding stages in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STAGE_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];
/** Seconds; a background job's pass: a database look in a millisecond, a stuck RPC call in a minute. */
const JOB_PASS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const httpRequests = new Counter({
  name: "points_http_requests_total",
  help: "HTTP requests answered, by method, route template (never the raw path) and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [processRegistry],
});
const httpDuration = new Histogram({
  name: "points_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by method, route template and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: HTTP_BUCKETS,
  registers: [processRegistry],
});
const engineReplacements = new Counter({
  name: "points_engine_replacements_total",
  help: "Transactions the engine replaced (same nonce, fees bumped) because they were not mined in time",
  labelNames: ["chain", "key"] as const,
  registers: [processRegistry],
});
const engineFinal = new Counter({
  name: "points_engine_final_transactions_total",
  help: "Transactions the engine saw final (confirmations deep)",
  labelNames: ["chain", "key"] as const,
  registers: [processRegistry],
});
const stageDuration = new Histogram({
  name: "points_onboarding_stage_duration_seconds",
  help: "How long each onboarding stage took, by stage and how it ended (done, skipped, failed)",
  labelNames: ["stage", "status"] as const,
  buckets: STAGE_BUCKETS,
  registers: [processRegistry],
});
const ledgerReorgs = new Counter({
  name: "points_ledger_reorgs_total",
  help: "Reorgs the ledger's indexer followed (indexed blocks the chain no longer has)",
  labelNames: ["chain"] as const,
  registers: [processRegistry],
});
const webhookAttempts = new Counter({
  name: "points_webhook_attempts_total",
  help: "Webhook delivery attempts, by result: delivered (2xx) or failed (retried later)",
  labelNames: ["result"] as const,
  registers: [processRegistry],
});

const jobPasses = new Counter({
  name: "points_job_passes_total",
  help: "Passes of a background job's loop, by job and outcome: ok, or error (the pass threw)",
  labelNames: ["job", "outcome"] as const,
  registers: [processRegistry],
});
const jobPassSeconds = new Histogram({
  name: "points_job_pass_seconds",
  help: "How long one pass of a background job's loop took, by job",
  labelNames: ["job"] as const,
  buckets: JOB_PASS_BUCKETS,
  registers: [processRegistry],
});
const jobLastSuccess = new Gauge({
  name: "points_job_last_success_timestamp_seconds",
  help: "When a background job's last pass that did not throw ended (Unix time, seconds)",
  labelNames: ["job"] as const,
  registers: [processRegistry],
});

/** A job's loop exists: both outcomes are exported at 0 from the start, so a rate or an alert has a series to read. */
export function jobDeclared(job: string): void {
  jobPasses.inc({ job, outcome: "ok" }, 0);
  jobPasses.inc({ job, outcome: "error" }, 0);
}

/**
 * A pass of job `job`'s loop ended (workers/jobs/passLoop.ts): counted by outcome, its duration
 * observed, and on success the time it ended (`endedAtMs`, Unix ms) kept.
 */
export function jobPassEnded(job: string, ok: boolean, seconds: number, endedAtMs: number): void {
  jobPasses.inc({ job, outcome: ok ? "ok" : "error" });
  jobPassSeconds.observe({ job }, Math.max(0, seconds));
  if (ok) jobLastSuccess.set({ job }, endedAtMs / 1000);
}

/** One answered HTTP request; `route` is the matched template (`/api/v1/programs/:id`) or `unmatched`. */
export function httpAnswered(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

export const engineReplaced = (chain: string, key: string) => engineReplacements.inc({ chain, key });
export const engineFinalized = (chain: string, key: string) => engineFinal.inc({ chain, key });

/** A stage of an onboarding task ended; its start and end as the deployer's manifest records them (ISO times). */
export function stageEnded(
  stage: string,
  status: string,
  startedAt: string | undefined,
  finishedAt: string | undefined,
) {
  if (!startedAt || !finishedAt) return;
  const seconds = (Date.parse(finishedAt) - Date.parse(startedAt)) / 1000;
  if (Number.isFinite(seconds) && seconds >= 0) stageDuration.observe({ stage, status }, seconds);
}

export const webhookAttempted = (delivered: boolean) =>
  webhookAttempts.inc({ result: delivered ? "delivered" : "failed" });

/** Subscribed to the ledger's events after their commit (it writes nothing): counts the reorgs that committed. */
export const metricsOnLedgerEvent: LedgerSubscriber = (event) => {
  if (event.type === "reorg") ledgerReorgs.inc({ chain: event.chainId });
};
