/**
 * The metric families Petri's processes register, with their label names: read from the one
 * prom-client registry (service-kit's) after importing every process's package, each of which
 * defines its metrics at module level where it records them, plus prom-client's default
 * process metrics every process turns on. The registry knows a family's labels even before a
 * series exists, which a scrape of an idle process cannot tell.
 */
import "@petri/gateway";
import "@petri/identity";
import "@petri/experiments";
import "@petri/marketplace";
import "@petri/hypotheses";
import "@petri/engine";
import "@petri/cloud-labs";
import "@petri/notifications";
import "@petri/events";
import "@petri/db";
import { collectProcessMetrics, metricsRegistry } from "@petri/service-kit";

export interface MetricFamily {
  name: string;
  type: string;
  labels: ReadonlySet<string>;
}

/** Labels Prometheus adds to every series of a target (the PodMonitors' podTargetLabels too). */
export const TARGET_LABELS: ReadonlySet<string> = new Set([
  "namespace",
  "pod",
  "container",
  "instance",
  "job",
  "endpoint",
  "app_kubernetes_io_name",
]);

export function registeredFamilies(): Map<string, MetricFamily> {
  collectProcessMetrics();
  const families = new Map<string, MetricFamily>();
  for (const metric of metricsRegistry.getMetricsAsArray()) {
    // prom-client's metric objects keep their label names; its types leave them out.
    const labelNames = (metric as typeof metric & { labelNames?: readonly string[] }).labelNames ?? [];
    families.set(metric.name, { name: metric.name, type: String(metric.type), labels: new Set(labelNames) });
  }
  return families;
}

/**
 * The family a series name belongs to, and the labels a series of it may carry: a histogram's
 * `_bucket` adds `le`, a summary's base name `quantile`; `_count` and `_sum` add none.
 */
export function familyOfSeries(
  series: string,
  families: ReadonlyMap<string, MetricFamily>,
): { family: MetricFamily; labels: ReadonlySet<string> } | undefined {
  const exact = families.get(series);
  if (exact && exact.type !== "histogram")
    return {
      family: exact,
      labels: exact.type === "summary" ? new Set([...exact.labels, "quantile"]) : exact.labels,
    };
  const suffix = /_(bucket|count|sum)$/.exec(series);
  if (!suffix) return undefined;
  const family = families.get(series.slice(0, -suffix[0].length));
  if (!family || (family.type !== "histogram" && family.type !== "summary")) return undefined;
  if (suffix[1] === "bucket" && family.type !== "histogram") return undefined;
  return { family, labels: suffix[1] === "bucket" ? new Set([...family.labels, "le"]) : family.labels };
}
