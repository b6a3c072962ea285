import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PKG } from "./helpers/cli.js";
import { createMetrics } from "../src/core/metrics/index.js";
import type { Db } from "../src/core/db/db.js";

/** Metric names in a PromQL text; a histogram's _bucket/_sum/_count series belong to its name. */
const namesIn = (text: string) =>
  new Set([...text.matchAll(/\bpoints_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, "")));

describe("ops/: the Grafana dashboard and the alert rules name only exported metrics", () => {
  const exported = new Set(createMetrics({ db: {} as Db, chains: [] }).names());

  it("everyMetricTheDashboardQueries_isExported", () => {
    const dashboard = JSON.parse(readFileSync(join(PKG, "ops/grafana-dashboard.json"), "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const used = namesIn(dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join("\n"));
    assert.ok(used.size >= 15, `the dashboard queries ${used.size} metrics`);
    assert.deepEqual(
      [...used].filter((n) => !exported.has(n)),
      [],
    );
  });

  it("everyMetricTheAlertsUse_isExported_andTheFourAlertsExist", () => {
    const rules = readFileSync(join(PKG, "ops/alerts.yml"), "utf8");
    const exprs = [...rules.matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1]);
    const alerts = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]);
    assert.deepEqual(alerts, [
      "ExecutorBalanceLow",
      "LedgerHeadLag",
      "TransactionStuck",
      "WebhookBacklog",
      "WebhookEndpointDead",
    ]);
    assert.deepEqual(
      [...namesIn(exprs.join("\n"))].filter((n) => !exported.has(n)),
      [],
    );
  });
});
