/**
 * The monitoring objects (deploy/k8s/monitoring, rendered to rendered/monitoring.yaml): the
 * PodMonitors scrape every Petri process where it serves /metrics, and every metric and label
 * the alerts and the dashboard name is one the processes register. The monitoring.coreos.com
 * kinds have no kubernetes-models model: they are checked here against a schema of the fields
 * we use (schema.test.ts covers the overlays, which hold none of them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as k8s from "kubernetes-models";
import { z } from "zod";
import { K8S_DIR, type K8sObject, renderedObjects } from "./overlays.js";
import { promqlReferences } from "./promql.js";
import { type MetricFamily, TARGET_LABELS, familyOfSeries, registeredFamilies } from "./metric-families.js";

const metadata = z.object({ name: z.string(), labels: z.record(z.string(), z.string()).optional() });
const podMonitorSchema = z.object({
  apiVersion: z.literal("monitoring.coreos.com/v1"),
  kind: z.literal("PodMonitor"),
  metadata,
  spec: z.strictObject({
    selector: z.strictObject({ matchLabels: z.record(z.string(), z.string()) }),
    podTargetLabels: z.array(z.string()).optional(),
    podMetricsEndpoints: z
      .array(
        z.strictObject({
          port: z.string(),
          path: z.string(),
          interval: z.string().regex(/^\d+(s|m)$/),
        }),
      )
      .min(1),
  }),
});
const ruleSchema = z.strictObject({
  alert: z.string().regex(/^Petri[A-Za-z0-9]+$/),
  expr: z.string(),
  for: z.string().regex(/^\d+(s|m|h)$/),
  labels: z.strictObject({ severity: z.enum(["warning", "critical"]) }),
  annotations: z.strictObject({ summary: z.string().min(1), description: z.string().min(40) }),
});
const prometheusRuleSchema = z.object({
  apiVersion: z.literal("monitoring.coreos.com/v1"),
  kind: z.literal("PrometheusRule"),
  metadata,
  spec: z.strictObject({
    groups: z.array(z.strictObject({ name: z.string(), rules: z.array(ruleSchema).min(1) })).min(1),
  }),
});
type PodMonitor = z.infer<typeof podMonitorSchema>;
type AlertRule = z.infer<typeof ruleSchema>;

const objects = renderedObjects("monitoring");
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const podMonitors = ofKind("PodMonitor").map((o) => podMonitorSchema.parse(o));
const alerts: AlertRule[] = ofKind("PrometheusRule").flatMap((o) =>
  prometheusRuleSchema.parse(o).spec.groups.flatMap((g) => g.rules),
);

interface DashboardPanel {
  title?: string;
  targets?: { expr: string; legendFormat?: string }[];
  panels?: DashboardPanel[];
  datasource?: { uid: string };
}
const dashboardFile = path.join(K8S_DIR, "monitoring/grafana/petri.json");
const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as {
  panels: DashboardPanel[];
  templating: { list: { name: string; type: string; query: unknown; definition?: string }[] };
};
const dashboardPanels = (panels: DashboardPanel[]): DashboardPanel[] =>
  panels.flatMap((p) => [p, ...dashboardPanels(p.panels ?? [])]);
const dashboardTargets = dashboardPanels(dashboard.panels).flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title ?? "?", ...target })),
);

/**
 * What is wrong with an expression's references: unknown series, matcher labels the family
 * does not have, grouping (and `extraLabels`: legends, annotations) labels none of its series has.
 */
function referenceProblems(
  expr: string,
  families: ReadonlyMap<string, MetricFamily>,
  extraLabels: string[] = [],
): string[] {
  const problems: string[] = [];
  const { selectors, groupingLabels } = promqlReferences(expr);
  if (selectors.length === 0) problems.push(`names no metric: ${expr}`);
  const known = new Set(TARGET_LABELS);
  for (const selector of selectors) {
    const found = familyOfSeries(selector.metric, families);
    if (!found) {
      problems.push(`unknown metric ${selector.metric}`);
      continue;
    }
    for (const label of found.labels) known.add(label);
    for (const label of selector.matcherLabels)
      if (!found.labels.has(label) && !TARGET_LABELS.has(label))
        problems.push(`${selector.metric} has no label ${label}`);
  }
  for (const label of [...groupingLabels, ...extraLabels])
    if (!known.has(label)) problems.push(`no series of the expression has the label ${label}`);
  return problems;
}

/** Grafana's interval variables stand for a duration when the panel queries; any will do here. */
const withGrafanaIntervals = (expr: string) =>
  expr.replace(/\$\{?__(rate_interval|interval|range)\}?/g, "5m");

const templateLabels = (text: string | undefined, pattern: RegExp) =>
  [...(text ?? "").matchAll(pattern)].map((m) => m[1]!);

describe("monitoring objects", () => {
  let families: Map<string, MetricFamily>;
  beforeAll(() => {
    families = registeredFamilies();
  });

  it("reads the registered families (every package defining metrics was imported)", () => {
    for (const name of [
      "petri_http_requests_total",
      "petri_rpc_server_calls_total",
      "petri_outbox_unsent_events",
      "petri_webhook_attempts_total",
      "petri_engine_run_duration_seconds",
      "petri_cloudlab_submission_duration_seconds",
      "petri_db_pool_connections",
      "petri_process_resident_memory_bytes",
    ])
      expect(families.has(name), name).toBe(true);
    expect(families.get("petri_http_request_duration_seconds")?.labels).toEqual(new Set(["method", "route"]));
  });

  it("renders PodMonitors, one PrometheusRule and the dashboard's ConfigMap", () => {
    expect(podMonitors.length).toBeGreaterThan(0);
    expect(ofKind("PrometheusRule")).toHaveLength(1);
    const configMap = ofKind("ConfigMap")[0] as K8sObject & { data: Record<string, string> };
    expect(() => new k8s.v1.ConfigMap(configMap as never).validate()).not.toThrow();
    expect(configMap.metadata.labels?.grafana_dashboard).toBe("1");
    expect(JSON.parse(configMap.data["petri.json"]!)).toEqual(dashboard);
    expect(objects.map((o) => o.kind).sort()).toEqual(
      ["ConfigMap", "PrometheusRule", ...podMonitors.map(() => "PodMonitor")].sort(),
    );
  });

  describe("PodMonitors", () => {
    const production = renderedObjects("production");
    const podTemplates = production
      .filter((o) => o.kind === "Deployment")
      .map((o) => {
        const spec = o.spec as {
          template: {
            metadata: { labels: Record<string, string> };
            spec: { containers: { ports?: { name?: string }[] }[] };
          };
        };
        return { name: o.metadata.name, template: spec.template };
      });
    const selects = (monitor: PodMonitor, labels: Record<string, string>) =>
      Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => labels[k] === v);

    it.each(podTemplates.map((d) => [d.name, d] as const))(
      "exactly one PodMonitor scrapes %s, on a port its pods name, at /metrics",
      (name, { template }) => {
        const monitors = podMonitors.filter((m) => selects(m, template.metadata.labels));
        expect(monitors.map((m) => m.metadata.name)).toHaveLength(1);
        const ports = template.spec.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
        for (const endpoint of monitors[0]!.spec.podMetricsEndpoints) {
          expect(ports).toContain(endpoint.port);
          expect(endpoint.path).toBe("/metrics");
        }
        // The gateway serves metrics on a port of their own, never on its public one.
        const expected = name === "gateway" ? "metrics" : "http";
        expect(monitors[0]!.spec.podMetricsEndpoints.map((e) => e.port)).toEqual([expected]);
      },
    );

    it("select no migration Job's pods", () => {
      const jobs = production.filter((o) => o.kind === "Job");
      expect(jobs.length).toBeGreaterThan(0);
      for (const job of jobs) {
        const labels = (job.spec as { template: { metadata: { labels: Record<string, string> } } }).template
          .metadata.labels;
        expect(
          podMonitors.filter((m) => selects(m, labels)),
          job.metadata.name,
        ).toEqual([]);
      }
    });
  });

  describe("alerts", () => {
    it("cover what the issue asks for", () => {
      const exprs = alerts.map((a) => a.expr).join("\n");
      for (const needed of [
        "petri_outbox_oldest_unsent_age_seconds",
        "petri_dead_letters",
        "petri_webhook_attempts_total",
        'petri_http_requests_total{status=~"5.."}',
        "histogram_quantile(0.99",
        "petri_consumer_pending_events",
      ])
        expect(exprs).toContain(needed);
    });

    it.each(alerts.map((a) => [a.alert, a] as const))(
      "%s names only metrics and labels that exist",
      (_, alert) => {
        const annotationLabels = Object.values(alert.annotations).flatMap((text) =>
          templateLabels(text, /\$labels\.(\w+)/g),
        );
        expect(referenceProblems(alert.expr, families, annotationLabels)).toEqual([]);
      },
    );
  });

  describe("Grafana dashboard", () => {
    it("takes its Prometheus data source from a template variable, in every panel and query", () => {
      const variable = dashboard.templating.list.find((v) => v.type === "datasource");
      expect(variable).toMatchObject({ name: "datasource", query: "prometheus" });
      const withSources = dashboardPanels(dashboard.panels).filter((p) => p.targets);
      expect(withSources.length).toBeGreaterThan(20);
      for (const panel of withSources) expect(panel.datasource?.uid, panel.title).toBe("${datasource}");
    });

    it.each(dashboardTargets.map((t) => [`${t.panel}: ${t.expr}`, t] as const))(
      "%s names only metrics and labels that exist",
      (_, target) => {
        const legendLabels = templateLabels(target.legendFormat, /\{\{\s*(\w+)\s*\}\}/g);
        expect(referenceProblems(withGrafanaIntervals(target.expr), families, legendLabels)).toEqual([]);
      },
    );

    it.each(dashboard.templating.list.filter((v) => v.type === "query").map((v) => [v.name, v] as const))(
      "variable %s reads a label that exists",
      (_, variable) => {
        const query = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.definition ?? "");
        expect(
          query,
          `variable ${variable.name}: only label_values(<selector>, <label>) is checked`,
        ).not.toBeNull();
        expect(referenceProblems(query![1]!, families, [query![2]!])).toEqual([]);
      },
    );
  });

  describe("the reference check", () => {
    it("finds metric names and labels among functions, aggregations, modifiers, strings and durations", () => {
      expect(
        promqlReferences(
          'histogram_quantile(0.99, sum by (le, route) (rate(a_bucket{route!="x(y)", s=~"5.."}[5m] offset 1h)))' +
            " > 1 and on (route) sum without (pod) (b) / ignoring(le) group_left(c) max(d{e='f'}) > bool 3",
        ),
      ).toEqual({
        selectors: [
          { metric: "a_bucket", matcherLabels: ["route", "s"] },
          { metric: "b", matcherLabels: [] },
          { metric: "d", matcherLabels: ["e"] },
        ],
        groupingLabels: ["le", "route", "route", "pod", "le", "c"],
      });
    });

    it("rejects an expression that is not PromQL", () => {
      expect(() => promqlReferences("sum(rate(petri_dead_letters[5m])")).toThrow(/syntax error/);
      expect(() => promqlReferences("petri_dead_letters >")).toThrow(/syntax error/);
    });

    it("rejects a metric, a matcher label or a grouping label that does not exist", () => {
      expect(referenceProblems("rate(petri_http_requests_totl[5m])", families)).toEqual([
        "unknown metric petri_http_requests_totl",
      ]);
      expect(referenceProblems('petri_outbox_unsent_events{consumer="x"}', families)).toEqual([
        "petri_outbox_unsent_events has no label consumer",
      ]);
      expect(referenceProblems("sum by (tier) (petri_outbox_unsent_events)", families)).toEqual([
        "no series of the expression has the label tier",
      ]);
      expect(referenceProblems("petri_engine_run_duration_seconds", families)).toEqual([
        "unknown metric petri_engine_run_duration_seconds",
      ]);
      expect(referenceProblems('petri_engine_run_duration_seconds_count{le="1"}', families)).toEqual([
        "petri_engine_run_duration_seconds_count has no label le",
      ]);
      expect(() => referenceProblems('{__name__="petri_dead_letters"}', families)).toThrow(
        /without a metric name/,
      );
    });
  });
});
