/**
 * Network policies: the namespace denies everything by default, every pod is selected by a
 * policy of its own for both directions, DNS is open to all, the gateway reaches every service
 * (and nothing but the gateway does), and only notifications reaches the internet.
 */
import { describe, expect, it } from "vitest";
import { OVERLAYS, renderedObjects } from "./overlays.js";
import { HTTP_PORT, SERVICES } from "./processes.js";
import { type LabelSelector, selects, workloads, ofKind } from "./workloads.js";

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: { port?: number | string; protocol?: string }[];
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes: ("Ingress" | "Egress")[];
  ingress?: Rule[];
  egress?: Rule[];
}

const isEmpty = (selector: LabelSelector) =>
  Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;

/** Does the rule let traffic from/to a pod with these labels in the same namespace, on this port? */
function allows(
  rule: Rule,
  peers: Peer[] | undefined,
  labels: Record<string, string>,
  port: number | string,
) {
  const peerOk =
    peers === undefined ||
    peers.some(
      (peer) =>
        !peer.namespaceSelector && !peer.ipBlock && peer.podSelector && selects(peer.podSelector, labels),
    );
  const portOk = !rule.ports || rule.ports.some((p) => p.port === undefined || p.port === port);
  return peerOk && portOk;
}

describe.each(OVERLAYS)("overlay %s: network policies", (overlay) => {
  const objects = renderedObjects(overlay);
  const policies = ofKind<PolicySpec>(objects, "NetworkPolicy");
  const pods = workloads(objects);
  const labelsOf = (name: string) => pods.find((w) => w.kind === "Deployment" && w.name === name)!.labels;

  it("denies all ingress and egress by default", () => {
    const deny = policies.find(
      (p) =>
        isEmpty(p.spec.podSelector) && !p.spec.ingress && !p.spec.egress && p.spec.policyTypes.length === 2,
    );
    expect(deny, "no default-deny policy (empty podSelector, Ingress and Egress, no rules)").toBeDefined();
  });

  it("covers every pod with a policy of its own for ingress and for egress", () => {
    const own = policies.filter((p) => !isEmpty(p.spec.podSelector));
    for (const w of pods)
      for (const direction of ["Ingress", "Egress"] as const)
        expect(
          own.some((p) => p.spec.policyTypes.includes(direction) && selects(p.spec.podSelector, w.labels)),
          `${w.kind} ${w.name}: no ${direction} policy selects its pods`,
        ).toBe(true);
  });

  it("lets every pod resolve names through kube-dns", () => {
    const dns = policies.find(
      (p) =>
        isEmpty(p.spec.podSelector) &&
        p.spec.egress?.some(
          (rule) =>
            rule.to?.some((peer) => peer.podSelector?.matchLabels?.["k8s-app"] === "kube-dns") &&
            ["UDP", "TCP"].every((protocol) =>
              rule.ports?.some((p) => p.port === 53 && p.protocol === protocol),
            ),
        ),
    );
    expect(dns, "no policy opens UDP and TCP 53 to kube-dns for every pod").toBeDefined();
  });

  it("lets the gateway, and only the gateway, call each service on its port", () => {
    const gateway = labelsOf("gateway");
    for (const s of SERVICES) {
      const target = labelsOf(s.name);
      const ingressRules = policies
        .filter((p) => p.spec.policyTypes.includes("Ingress") && selects(p.spec.podSelector, target))
        .flatMap((p) => p.spec.ingress ?? []);
      expect(
        ingressRules.some((r) => allows(r, r.from, gateway, "http")),
        `${s.name} ingress from gateway`,
      ).toBe(true);
      for (const other of SERVICES.filter((o) => o.name !== s.name))
        expect(
          ingressRules.some((r) => allows(r, r.from, labelsOf(other.name), "http")),
          `${other.name} -> ${s.name}`,
        ).toBe(false);
      const egressRules = policies
        .filter((p) => p.spec.policyTypes.includes("Egress") && selects(p.spec.podSelector, gateway))
        .flatMap((p) => p.spec.egress ?? []);
      expect(
        egressRules.some((r) => allows(r, r.to, target, HTTP_PORT)),
        `gateway egress to ${s.name}`,
      ).toBe(true);
    }
  });

  it("lets Prometheus (a namespace labelled petri.io/monitoring=true) scrape every process's metrics port, and nothing else", () => {
    const monitoring = (peer: Peer) =>
      peer.namespaceSelector?.matchLabels?.["petri.io/monitoring"] === "true";
    for (const name of ["gateway", ...SERVICES.map((s) => s.name)]) {
      const rules = policies
        .filter((p) => p.spec.policyTypes.includes("Ingress") && selects(p.spec.podSelector, labelsOf(name)))
        .flatMap((p) => p.spec.ingress ?? [])
        .filter((r) => (r.from ?? []).some(monitoring));
      const ports = rules.flatMap((r) => (r.ports ?? []).map((p) => p.port));
      expect(ports, `${name}: ports open to monitoring`).toEqual([name === "gateway" ? "metrics" : "http"]);
    }
  });

  it("lets every service reach PostgreSQL (5432) and NATS (4222)", () => {
    for (const s of SERVICES) {
      const ports = policies
        .filter((p) => p.spec.policyTypes.includes("Egress") && selects(p.spec.podSelector, labelsOf(s.name)))
        .flatMap((p) => p.spec.egress ?? [])
        .flatMap((r) => (r.ports ?? []).map((p) => p.port));
      expect(ports, s.name).toEqual(expect.arrayContaining([5432, 4222]));
    }
  });

  it("opens the internet (443) to notifications only", () => {
    for (const w of pods.filter((w) => w.kind === "Deployment")) {
      const opens443 = policies
        .filter((p) => p.spec.policyTypes.includes("Egress") && selects(p.spec.podSelector, w.labels))
        .flatMap((p) => p.spec.egress ?? [])
        .some((r) => !r.to && r.ports?.some((p) => p.port === 443));
      expect(opens443, w.name).toBe(w.name === "notifications");
    }
  });
});
