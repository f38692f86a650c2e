/**
 * Policies every overlay's rendered manifests must keep: probes, resources, hardening,
 * ports, one migrations Job per service, PDBs, autoscaling, images, blob storage and the
 * gateway's per-call balancing through headless Services.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OVERLAYS, REPO_ROOT, renderedObjects } from "./overlays.js";
import { HTTP_PORT, PROCESSES, SERVICES } from "./processes.js";
import {
  type Container,
  type LabelSelector,
  type Workload,
  allContainers,
  containerEnvironment,
  findObject,
  ofKind,
  plainValue,
  selects,
  workloads,
} from "./workloads.js";
import { documentedKeys } from "./documented-secrets.js";

const label = (w: Workload, c?: Container) => `${w.kind} ${w.name}${c ? ` container ${c.name}` : ""}`;

describe("the process list", () => {
  it("is the gateway and every services/ directory", () => {
    const dirs = readdirSync(path.join(REPO_ROOT, "services"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(PROCESSES.map((p) => p.name).sort()).toEqual(["gateway", ...dirs].sort());
  });

  it("is what the Dockerfile builds an image of (its SERVICE build argument's accepted values)", () => {
    const dockerfile = readFileSync(path.join(REPO_ROOT, "deploy/docker/Dockerfile"), "utf8");
    const accepted = /case "\$SERVICE" in\s*\\\s*([a-z|-]+)\)/.exec(dockerfile)?.[1];
    expect(accepted, "the Dockerfile's SERVICE check").toBeDefined();
    expect(accepted!.split("|").sort()).toEqual(PROCESSES.map((p) => p.name).sort());
  });
});

describe.each(OVERLAYS)("overlay %s", (overlay) => {
  const objects = renderedObjects(overlay);
  const all = workloads(objects);
  const petri = (name: string) => all.find((w) => w.kind === "Deployment" && w.name === name)!;
  const envOf = (c: Container) => containerEnvironment(c, objects, documentedKeys);

  it("has a Deployment for every process and nothing else of Petri's", () => {
    const deployments = all.filter((w) => w.kind === "Deployment").map((w) => w.name);
    expect(deployments.sort()).toEqual(PROCESSES.map((p) => p.name).sort());
  });

  it("gives every long-running container startup, readiness and liveness probes", () => {
    for (const w of all.filter((w) => w.kind !== "Job"))
      for (const c of w.pod.containers)
        for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"] as const)
          expect(c[probe], `${label(w, c)} has no ${probe}`).toBeDefined();
  });

  it("probes Petri's processes on /readyz (readiness) and /healthz (liveness, startup) of their http port", () => {
    for (const p of PROCESSES) {
      const c = petri(p.name).pod.containers[0]!;
      expect(c.readinessProbe?.httpGet, p.name).toEqual({ path: "/readyz", port: "http" });
      expect(c.livenessProbe?.httpGet, p.name).toEqual({ path: "/healthz", port: "http" });
      expect(c.startupProbe?.httpGet, p.name).toEqual({ path: "/healthz", port: "http" });
    }
  });

  it("sets CPU and memory requests and limits on every container", () => {
    for (const w of all)
      for (const c of allContainers(w.pod))
        for (const kind of ["requests", "limits"] as const)
          for (const resource of ["cpu", "memory"])
            expect(c.resources?.[kind]?.[resource], `${label(w, c)} ${kind}.${resource}`).toBeDefined();
  });

  it("hardens every container: non-root, read-only root, no privilege escalation, no capabilities, RuntimeDefault seccomp", () => {
    for (const w of all)
      for (const c of allContainers(w.pod)) {
        const own = c.securityContext ?? {};
        const pod = w.pod.securityContext ?? {};
        const where = label(w, c);
        expect(own.runAsNonRoot ?? pod.runAsNonRoot, `${where} runAsNonRoot`).toBe(true);
        expect(own.runAsUser ?? pod.runAsUser, `${where} runs as uid 0`).not.toBe(0);
        expect(own.readOnlyRootFilesystem, `${where} readOnlyRootFilesystem`).toBe(true);
        expect(own.allowPrivilegeEscalation, `${where} allowPrivilegeEscalation`).toBe(false);
        expect(own.privileged ?? false, `${where} privileged`).toBe(false);
        expect(own.capabilities?.drop, `${where} drops ALL capabilities`).toContain("ALL");
        expect(own.capabilities?.add ?? [], `${where} adds capabilities`).toEqual([]);
        expect((own.seccompProfile ?? pod.seccompProfile)?.type, `${where} seccomp`).toBe("RuntimeDefault");
      }
  });

  it("mounts no service-account token anywhere", () => {
    for (const w of all) expect(w.pod.automountServiceAccountToken, `${label(w)}`).toBe(false);
    for (const sa of ofKind(objects, "ServiceAccount"))
      expect(
        (sa as { automountServiceAccountToken?: boolean }).automountServiceAccountToken,
        sa.metadata.name,
      ).toBe(false);
  });

  it("listens where it is reached: PORT, the http container port and every Service's target agree", () => {
    for (const p of PROCESSES) {
      const w = petri(p.name);
      const c = w.pod.containers[0]!;
      const env = envOf(c);
      expect(plainValue(env, "PORT"), `${p.name} PORT`).toBe(String(HTTP_PORT));
      expect(plainValue(env, "HOST"), `${p.name} HOST`).toBe("0.0.0.0");
      // The gateway's /metrics has a port of its own (its http port is the public API's).
      expect(c.ports, `${p.name} ports`).toEqual([
        { name: "http", containerPort: HTTP_PORT, protocol: "TCP" },
        ...(p.name === "gateway"
          ? [
              {
                name: "metrics",
                containerPort: Number(plainValue(env, "PETRI_METRICS_PORT")),
                protocol: "TCP",
              },
            ]
          : []),
      ]);
      if (p.name === "gateway") expect(plainValue(env, "PETRI_METRICS_HOST")).toBe("0.0.0.0");
    }
    for (const service of ofKind<{
      selector?: Record<string, string>;
      ports: { targetPort: string | number }[];
    }>(objects, "Service")) {
      const targets = all.filter((w) => selects({ matchLabels: service.spec.selector ?? {} }, w.labels));
      expect(targets.length, `Service ${service.metadata.name} selects no pod`).toBeGreaterThan(0);
      for (const { targetPort } of service.spec.ports)
        for (const w of targets) {
          const ports = w.pod.containers.flatMap((c) => c.ports ?? []);
          const match = ports.some((port) => port.name === targetPort || port.containerPort === targetPort);
          expect(
            match,
            `Service ${service.metadata.name} targets ${targetPort}, absent from ${label(w)}`,
          ).toBe(true);
        }
    }
  });

  it("runs each service's migrations in its own Job, with the Deployment's image, settings and hardening", () => {
    const jobs = all.filter((w) => w.kind === "Job" && w.labels["app.kubernetes.io/component"] === "migrate");
    expect(jobs.map((j) => j.name).sort()).toEqual(SERVICES.map((s) => `${s.name}-migrate`).sort());
    for (const s of SERVICES) {
      const server = petri(s.name).pod.containers[0]!;
      const job = jobs.find((j) => j.name === `${s.name}-migrate`)!;
      const migrate = job.pod.containers[0]!;
      expect(migrate.image, s.name).toBe(server.image);
      expect(migrate.args, s.name).toEqual(["migrate"]);
      expect(migrate.securityContext, s.name).toEqual(server.securityContext);
      expect(job.pod.securityContext, s.name).toEqual(petri(s.name).pod.securityContext);
      const settings = (c: Container) => {
        const env = Object.fromEntries(envOf(c));
        delete env.PETRI_MIGRATE_ON_START;
        return env;
      };
      expect(settings(migrate), `${s.name}-migrate settings`).toEqual(settings(server));
      // Replicas never migrate: only the Job does, so a rollout cannot race it.
      expect(plainValue(envOf(server), "PETRI_MIGRATE_ON_START"), s.name).toBe("false");
    }
  });

  it("gives every Deployment a PodDisruptionBudget", () => {
    const pdbs = ofKind<{ selector: LabelSelector }>(objects, "PodDisruptionBudget");
    for (const w of all.filter((w) => w.kind === "Deployment"))
      expect(
        pdbs.some((pdb) => selects(pdb.spec.selector, w.labels)),
        `${label(w)} has no PDB`,
      ).toBe(true);
  });

  it("autoscales every process in production, none in local (one replica each)", () => {
    const hpas = ofKind<{ scaleTargetRef: { kind: string; name: string }; minReplicas: number }>(
      objects,
      "HorizontalPodAutoscaler",
    );
    if (overlay === "local") {
      expect(hpas).toEqual([]);
      for (const p of PROCESSES)
        expect((petri(p.name).object.spec as { replicas: number }).replicas, p.name).toBe(1);
      return;
    }
    for (const p of PROCESSES) {
      const hpa = hpas.find(
        (h) => h.spec.scaleTargetRef.kind === "Deployment" && h.spec.scaleTargetRef.name === p.name,
      );
      expect(hpa, `${p.name} has no HPA`).toBeDefined();
      expect(hpa!.spec.minReplicas, p.name).toBeGreaterThanOrEqual(2);
      // The HPA owns the count: a replicas field would be reset by every apply.
      expect((petri(p.name).object.spec as { replicas?: number }).replicas, p.name).toBeUndefined();
      const affinity = (
        petri(p.name).object.spec as { template: { spec: { affinity?: { podAntiAffinity?: unknown } } } }
      ).template.spec.affinity;
      expect(affinity?.podAntiAffinity, `${p.name} has no podAntiAffinity`).toBeDefined();
    }
  });

  it("runs each process from its own image, petri/<name>", () => {
    for (const p of PROCESSES) {
      const c = petri(p.name).pod.containers[0]!;
      expect(c.name).toBe(p.name);
      expect(c.image, p.name).toMatch(new RegExp(`(^|/)petri/${p.name}:[\\w.-]+$`));
    }
  });

  it("keeps result files where every experiments replica sees them", () => {
    const w = petri("experiments");
    const c = w.pod.containers[0]!;
    const env = envOf(c);
    const replicas = (w.object.spec as { replicas?: number }).replicas ?? 1;
    const scaled =
      replicas > 1 ||
      ofKind(objects, "HorizontalPodAutoscaler").some((h) => h.metadata.name === "experiments");
    if (plainValue(env, "PETRI_BLOB_STORE") === "s3") {
      for (const name of [
        "PETRI_S3_REGION",
        "PETRI_S3_BUCKET",
        "PETRI_S3_ACCESS_KEY_ID",
        "PETRI_S3_SECRET_ACCESS_KEY",
      ])
        expect(env.has(name), `experiments with s3 needs ${name}`).toBe(true);
      return;
    }
    expect(scaled, "several experiments replicas need the s3 blob store").toBe(false);
    const dir = plainValue(env, "PETRI_BLOB_DIR");
    const mount = c.volumeMounts?.find((m) => m.mountPath === dir);
    expect(mount, `PETRI_BLOB_DIR ${dir} is not a mounted volume`).toBeDefined();
    const volume = w.pod.volumes?.find((v) => v.name === mount!.name);
    expect(volume?.persistentVolumeClaim, "the blob volume is not persistent").toBeDefined();
    expect(
      findObject(objects, "PersistentVolumeClaim", volume!.persistentVolumeClaim!.claimName),
    ).toBeDefined();
  });

  it("points the gateway at every service's headless Service, which resolves to that service's pods", () => {
    const env = envOf(petri("gateway").pod.containers[0]!);
    for (const s of SERVICES) {
      const variable = `PETRI_${s.name.replace("-", "").toUpperCase()}_URL`;
      expect(plainValue(env, variable), variable).toBe(`http://${s.name}-headless:${HTTP_PORT}`);
      const headless = findObject(objects, "Service", `${s.name}-headless`) as
        { spec: { clusterIP?: string; selector: Record<string, string> } } | undefined;
      expect(headless?.spec.clusterIP, `${s.name}-headless`).toBe("None");
      expect(
        selects({ matchLabels: headless!.spec.selector }, petri(s.name).labels),
        `${s.name}-headless`,
      ).toBe(true);
    }
  });

  it("lets the gateway sign with the key id the services derive from their PEM public key", () => {
    // A configured PETRI_INTERNAL_JWT_KID would name a key no service knows: every call refused.
    expect(envOf(petri("gateway").pod.containers[0]!).has("PETRI_INTERNAL_JWT_KID")).toBe(false);
    for (const s of SERVICES) {
      const reference = envOf(petri(s.name).pod.containers[0]!).get("PETRI_INTERNAL_JWT_PUBLIC_KEY");
      expect(reference, s.name).toBeDefined();
    }
  });
});
