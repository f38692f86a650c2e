import { metricsRegistry } from "./metrics.js";

/**
 * Tests: the current value of one sample of this process's registry, 0 when absent. `name`
 * may be a histogram's `<name>_count` or `<name>_sum`; `labels` must all match.
 */
export async function metricSample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const base = name.replace(/_(count|sum)$/, "");
  const metric = metricsRegistry.getSingleMetric(name) ?? metricsRegistry.getSingleMetric(base);
  if (!metric) return 0;
  const { values } = await metric.get();
  const found = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? name) === name &&
      Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === wanted),
  );
  return found?.value ?? 0;
}
