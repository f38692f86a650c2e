import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
  type StreamInfo,
} from "@nats-io/jetstream";
import { nanos, RequestError, TimeoutError } from "@nats-io/transport-node";
import type { ConsumerSpec, StreamSpec } from "./bus.js";
import { errorMessage, type Logger } from "./internal/async.js";

const DEFAULT_ACK_WAIT_MS = 30_000;

export function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

/** How often a management request is asked again while the cluster settles, 1 s apart. */
const MANAGEMENT_ATTEMPTS = 20;

/**
 * A management request that met a cluster electing leaders (a node restarted, a stream's
 * copies raised): it timed out, found no responder, or JetStream answered 503. Asked again,
 * it is answered once the election is over.
 */
function isClusterSettling(err: unknown): boolean {
  return (
    err instanceof TimeoutError ||
    (err instanceof RequestError && err.isNoResponders()) ||
    (err instanceof JetStreamApiError && err.status === 503)
  );
}

function sameSubjects(a: readonly string[], b: readonly string[]): boolean {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((s, i) => s === y[i]);
}

/** A consumer filter of ">" is stored as "no filter" by the server. */
function normaliseFilter(filter: string | undefined): string {
  return filter === undefined || filter === "" ? ">" : filter;
}

/**
 * Creates JetStream streams and durable pull consumers, or brings an existing one's
 * configuration in line, idempotently: every process provisions what it uses at start.
 */
export class JetStreamProvisioner {
  constructor(
    private readonly jsm: JetStreamManager,
    private readonly logger: Logger,
    private readonly settings: { duplicateWindowMs?: number; streamReplicas?: number },
    /** True once the bus closes: a settling cluster is then not waited for. */
    private readonly isClosing: () => boolean,
  ) {}

  /**
   * Runs a provisioning step, asking again (bounded) while the cluster settles, so a process
   * starting just after a node restart or a replica raise does not fail its start-up for it.
   */
  async whenClusterSettled<T>(what: string, step: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await step();
      } catch (err) {
        if (attempt >= MANAGEMENT_ATTEMPTS || this.isClosing() || !isClusterSettling(err)) throw err;
        this.logger.warn({ err: errorMessage(err), attempt, what }, "JetStream is settling; asking again");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  async stream(spec: StreamSpec): Promise<void> {
    const duplicateWindow = nanos(this.settings.duplicateWindowMs ?? 120_000);
    const replicas = this.settings.streamReplicas ?? 1;
    let info: StreamInfo;
    try {
      info = await this.jsm.streams.info(spec.name);
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
      try {
        await this.jsm.streams.add({
          name: spec.name,
          subjects: [...spec.subjects],
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
          discard: DiscardPolicy.Old,
          duplicate_window: duplicateWindow,
          num_replicas: replicas,
        });
        this.logger.info({ stream: spec.name, subjects: spec.subjects, replicas }, "stream created");
        return;
      } catch (addErr) {
        // Another process may have created it in the meantime: fall through to compare.
        info = await this.jsm.streams.info(spec.name).catch(() => {
          throw addErr;
        });
      }
    }
    // Fewer copies than wanted: a stream made before the cluster grew. Raising them is an
    // online operation (the new peers catch up from the leader). Never lowered here: a process
    // still configured for one copy during a roll-out must not take the others away.
    const wantedReplicas = Math.max(info.config.num_replicas ?? 1, replicas);
    if (
      !sameSubjects(info.config.subjects ?? [], spec.subjects) ||
      info.config.duplicate_window !== duplicateWindow ||
      info.config.num_replicas !== wantedReplicas
    ) {
      await this.jsm.streams.update(spec.name, {
        ...info.config,
        subjects: [...spec.subjects],
        duplicate_window: duplicateWindow,
        num_replicas: wantedReplicas,
      });
      this.logger.info(
        { stream: spec.name, subjects: spec.subjects, replicas: wantedReplicas },
        "stream updated",
      );
    }
  }

  async consumer(spec: ConsumerSpec): Promise<ConsumerInfo> {
    const ackWait = nanos(spec.ackWaitMs ?? DEFAULT_ACK_WAIT_MS);
    const wanted: Partial<ConsumerConfig> = {
      ack_wait: ackWait,
      max_deliver: -1, // the consumer runner decides when to dead-letter
      filter_subject: spec.filterSubject,
    };
    let info: ConsumerInfo;
    try {
      info = await this.jsm.consumers.info(spec.stream.name, spec.durable);
      const drift =
        normaliseFilter(info.config.filter_subject) !== normaliseFilter(spec.filterSubject) ||
        info.config.ack_wait !== ackWait ||
        info.config.max_deliver !== -1;
      if (drift) {
        info = await this.jsm.consumers.update(spec.stream.name, spec.durable, wanted);
        this.logger.info({ stream: spec.stream.name, durable: spec.durable }, "consumer updated");
      }
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
      info = await this.jsm.consumers.add(spec.stream.name, {
        durable_name: spec.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...wanted,
      });
      this.logger.info(
        { stream: spec.stream.name, durable: spec.durable, filter: spec.filterSubject },
        "consumer created",
      );
    }
    if (normaliseFilter(info.config.filter_subject) !== normaliseFilter(spec.filterSubject)) {
      throw new Error(
        `consumer ${spec.stream.name}/${spec.durable} has filter "${info.config.filter_subject ?? ""}", wanted "${spec.filterSubject}"`,
      );
    }
    return info;
  }
}
