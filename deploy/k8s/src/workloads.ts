/**
 * Reading the rendered objects the way the policy tests ask about them: the pod templates of
 * every workload, their containers, the environment a container gets, label selectors.
 */
import type { K8sObject } from "./overlays.js";

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
    values?: string[];
  }[];
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
  };
}

export interface EnvFromSource {
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
  tcpSocket?: { port: string | number };
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: SecurityContext;
  automountServiceAccountToken?: boolean;
  serviceAccountName?: string;
  volumes?: {
    name: string;
    persistentVolumeClaim?: { claimName: string };
    secret?: { secretName: string };
  }[];
}

export interface Workload {
  object: K8sObject;
  kind: "Deployment" | "StatefulSet" | "Job";
  name: string;
  labels: Record<string, string>;
  pod: PodSpec;
}

const WORKLOAD_KINDS = new Set([
  "Deployment",
  "StatefulSet",
  "Job",
  "DaemonSet",
  "CronJob",
  "Pod",
  "ReplicaSet",
]);

/** Every workload's pod template. Kinds Petri does not use are refused rather than ignored. */
export function workloads(objects: readonly K8sObject[]): Workload[] {
  return objects
    .filter((object) => WORKLOAD_KINDS.has(object.kind))
    .map((object) => {
      if (!["Deployment", "StatefulSet", "Job"].includes(object.kind))
        throw new Error(
          `${object.kind} ${object.metadata.name}: the checks know Deployment, StatefulSet and Job only`,
        );
      const template = (
        object.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } }
      ).template;
      return {
        object,
        kind: object.kind as Workload["kind"],
        name: object.metadata.name,
        labels: template.metadata?.labels ?? {},
        pod: template.spec,
      };
    });
}

export const allContainers = (pod: PodSpec): Container[] => [
  ...(pod.initContainers ?? []),
  ...pod.containers,
];

export function ofKind<T = Record<string, unknown>>(objects: readonly K8sObject[], kind: string) {
  return objects.filter((object) => object.kind === kind) as (K8sObject & { spec: T })[];
}

export function findObject(objects: readonly K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

/** Kubernetes' label selector semantics (an empty selector selects everything). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = key in labels;
    if (operator === "In" && !(has && values.includes(labels[key]!))) return false;
    if (operator === "NotIn" && has && values.includes(labels[key]!)) return false;
    if (operator === "Exists" && !has) return false;
    if (operator === "DoesNotExist" && has) return false;
  }
  return true;
}

/** Where a variable a container gets comes from. */
export type EnvSource =
  | { from: "value"; value: string }
  | { from: "configMap"; name: string; value: string }
  | { from: "secret"; name: string; key: string; optional: boolean }
  | { from: "field" };

/**
 * The environment a container starts with: envFrom ConfigMaps (their data, looked up in the
 * rendered objects), envFrom Secrets (their documented keys) and env entries, later ones
 * winning as in Kubernetes. Empty values are left out: the services treat them as unset.
 */
export function containerEnvironment(
  container: Container,
  objects: readonly K8sObject[],
  secretKeys: (secret: string) => readonly string[],
): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const map = findObject(objects, "ConfigMap", source.configMapRef.name) as
        { data?: Record<string, string> } | undefined;
      if (!map)
        throw new Error(
          `container ${container.name}: ConfigMap ${source.configMapRef.name} is not in the overlay`,
        );
      for (const [name, value] of Object.entries(map.data ?? {}))
        if (value !== "") env.set(name, { from: "configMap", name: source.configMapRef.name, value });
    }
    if (source.secretRef)
      for (const key of secretKeys(source.secretRef.name))
        env.set(key, {
          from: "secret",
          name: source.secretRef.name,
          key,
          optional: source.secretRef.optional ?? false,
        });
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom;
    if (ref?.secretKeyRef)
      env.set(variable.name, {
        from: "secret",
        ...ref.secretKeyRef,
        optional: ref.secretKeyRef.optional ?? false,
      });
    else if (ref?.configMapKeyRef) {
      const map = findObject(objects, "ConfigMap", ref.configMapKeyRef.name) as
        { data?: Record<string, string> } | undefined;
      const value = map?.data?.[ref.configMapKeyRef.key];
      if (value !== undefined && value !== "")
        env.set(variable.name, { from: "configMap", name: ref.configMapKeyRef.name, value });
      else env.delete(variable.name);
    } else if (ref?.fieldRef) env.set(variable.name, { from: "field" });
    else if (variable.value !== undefined && variable.value !== "")
      env.set(variable.name, { from: "value", value: variable.value });
    else env.delete(variable.name);
  }
  return env;
}

/** A plain value the container gets (from env or a ConfigMap), or undefined. */
export function plainValue(env: Map<string, EnvSource>, name: string): string | undefined {
  const source = env.get(name);
  return source && (source.from === "value" || source.from === "configMap") ? source.value : undefined;
}

/** Every Secret (and key, where one is named) the objects refer to. */
export function secretReferences(
  objects: readonly K8sObject[],
): { where: string; name: string; key?: string; optional: boolean }[] {
  const refs: { where: string; name: string; key?: string; optional: boolean }[] = [];
  for (const workload of workloads(objects)) {
    const where = `${workload.kind} ${workload.name}`;
    for (const container of allContainers(workload.pod)) {
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (ref)
          refs.push({
            where: `${where} ${container.name} ${variable.name}`,
            name: ref.name,
            key: ref.key,
            optional: ref.optional ?? false,
          });
      }
      for (const source of container.envFrom ?? [])
        if (source.secretRef)
          refs.push({
            where: `${where} ${container.name} envFrom`,
            name: source.secretRef.name,
            optional: source.secretRef.optional ?? false,
          });
    }
    for (const volume of workload.pod.volumes ?? [])
      if (volume.secret)
        refs.push({
          where: `${where} volume ${volume.name}`,
          name: volume.secret.secretName,
          optional: false,
        });
  }
  for (const ingress of ofKind<{ tls?: { secretName?: string }[] }>(objects, "Ingress"))
    for (const tls of ingress.spec.tls ?? [])
      if (tls.secretName)
        refs.push({ where: `Ingress ${ingress.metadata.name} tls`, name: tls.secretName, optional: false });
  return refs;
}
