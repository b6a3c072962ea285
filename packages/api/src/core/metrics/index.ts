import { Registry } from "prom-client";
import { processRegistry } from "./hooks.js";
import { serviceRegistry, type CollectSources } from "./collect.js";

export {
  httpAnswered,
  jobDeclared,
  jobPassEnded,
  stageEnded,
  webhookAttempted,
  metricsOnLedgerEvent,
} from "./hooks.js";
export { watchEngine, unwatchEngine } from "./engines.js";

/** One instance's metrics: the process's counters and engines, and its own database gauges. */
export interface Metrics {
  contentType: string;
  /** The Prometheus text of every metric, collected now. */
  scrape(): Promise<string>;
  /** Every metric name exported (the dashboard and alert rules are checked against it). */
  names(): string[];
}

export function createMetrics(sources: CollectSources): Metrics {
  const service = serviceRegistry(sources);
  const merged = Registry.merge([processRegistry, service]);
  return {
    contentType: merged.contentType,
    scrape: () => merged.metrics(),
    names: () => merged.getMetricsAsArray().map((m) => m.name),
  };
}
