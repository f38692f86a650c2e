import { NotificationsService } from "@petri/contracts/notifications";
import { type ServiceDeps, createServiceRuntime } from "@petri/host";
import {
  AddressAllowlist,
  type Clock,
  type HostedService,
  type Logger,
  type ReadinessCheck,
  type Resolver,
} from "@petri/service-kit";
import type { Kysely } from "kysely";
import { makeAttemptDelivery } from "./app/attempt-delivery.js";
import { makeCheckWebhookUrl } from "./app/check-webhook-url.js";
import { makeCreateWebhookSecret } from "./app/create-webhook-secret.js";
import { makeGetWebhookDelivery } from "./app/get-webhook-delivery.js";
import { makeListSentMail } from "./app/list-sent-mail.js";
import { makeListWebhookDeliveries } from "./app/list-webhook-deliveries.js";
import { makeRecordDeliveryAttempt } from "./app/record-delivery-attempt.js";
import { makeReplayWebhookDelivery } from "./app/replay-webhook-delivery.js";
import { makeResumeWebhookDeliveries } from "./app/resume-webhook-deliveries.js";
import { makeRotateWebhookSecret } from "./app/rotate-webhook-secret.js";
import { makeScheduleWebhookDelivery } from "./app/schedule-webhook-delivery.js";
import { SigningSecretVault } from "./app/signing-secrets.js";
import { makeTestWebhook } from "./app/test-webhook.js";
import { makeValidateWebhookUrl } from "./app/validate-webhook-url.js";
import { makeGetWebhookSettings } from "./app/get-webhook-settings.js";
import { notificationsMigrations } from "./db/migrations/index.js";
import type { NotificationsDb } from "./db/schema.js";
import { BackgroundLoop } from "@petri/service-kit";
import { deleteAttemptsBefore } from "./db/deliveries.js";
import { DeliveryWorker } from "./delivery/delivery-worker.js";
import { systemResolver } from "./delivery/system-resolver.js";
import { observeWebhookQueue } from "./delivery/webhook-metrics.js";
import { UndiciWebhookSender, type WebhookSender } from "./delivery/webhook-sender.js";
import { notificationsConsumers } from "./events/subscriptions.js";
import { MailDispatcher } from "./mail/mail-dispatcher.js";
import { type Mailer, TableOnlyMailer } from "./mail/mailer.js";
import { type NotificationsUseCases, createNotificationsRpc } from "./rpc/notifications-rpc.js";
import { loadOrCreateNotificationsKek } from "./security/secrets-file.js";

/**
 * What notifications needs beyond the shared ServiceDeps. Every field is optional so that a
 * host can pass its own options object: the standalone host's carries `dataDir`, which is
 * where the KEK is kept when none is given.
 */
export interface NotificationsServiceOptions {
  /** Key-encryption key for signing secrets at rest (PETRI_NOTIFICATIONS_KEK): exactly 32 bytes. */
  kek?: Uint8Array | undefined;
  /**
   * Standalone: without `kek`, the KEK is read from (or created in)
   * <dataDir>/notifications-secrets.json; "memory://" uses a fresh one.
   */
  dataDir?: string | undefined;
  /** Default: mail is kept in the sent_mail table only (ListSentMail shows it). */
  mailer?: Mailer | undefined;
  /** TESTS ONLY: addresses let through despite the SSRF policy. Default: none. */
  webhookTestAllowlist?: AddressAllowlist | undefined;
  /** Test seam: how hostnames resolve (default: the operating system's resolver). */
  resolver?: Resolver | undefined;
  /** Test seam: extra CA certificates receivers' TLS certificates may chain to. */
  webhookCa?: string | string[] | undefined;
  /** Test seam: replaces the HTTP sender (default: undici under the SSRF policy). */
  webhookSender?: WebhookSender | undefined;
  /** The delivery worker and mail dispatcher run in the background (default true); tests may drive them. */
  runBackgroundWork?: boolean | undefined;
  /** Delivery worker tuning (defaults: 128 in flight, 4 per receiver, 60 s leases). */
  delivery?:
    | { maxInFlight?: number; perHost?: number; leaseMs?: number; pollMs?: number; minPollMs?: number }
    | undefined;
}

export interface NotificationsHostedService extends HostedService {
  /** The use cases behind the RPCs, for tests and the host. */
  readonly useCases: NotificationsUseCases;
  /** Runs every due delivery to completion now; returns the attempts started. */
  deliverDue(): Promise<number>;
  /** Deletes the rows past retention now (the runtime's pruner also does so on its interval). */
  prune(): Promise<Record<string, number>>;
  /** Sends the due e-mail now; returns how many messages were handled. */
  dispatchMail(): Promise<number>;
  /** This process's delivery worker (its lease owner id, attempts in flight). */
  readonly worker: DeliveryWorker;
}

async function resolveKek(options: NotificationsServiceOptions): Promise<Uint8Array> {
  if (options.kek) return options.kek;
  if (options.dataDir !== undefined) return loadOrCreateNotificationsKek(options.dataDir);
  throw new Error("the notifications service needs a key-encryption key (PETRI_NOTIFICATIONS_KEK)");
}

/** Composition root of the notifications service: webhooks, signing, deliveries, e-mail. */
export function createNotificationsService(
  deps: ServiceDeps,
  options: NotificationsServiceOptions = {},
): NotificationsHostedService {
  if (!options.kek && options.dataDir === undefined)
    throw new Error("the notifications service needs a key-encryption key (PETRI_NOTIFICATIONS_KEK)");
  const { clock } = deps;
  const logger = deps.logger.child({ service: "notifications" });
  const { allowlist, resolver, sender } = webhookTransport(options, logger);
  const vault = new SigningSecretVault();
  const mailer = options.mailer ?? new TableOnlyMailer();

  // Scheduling hands deliveries to the worker, a pause wakes the mail loop; both are built below.
  const pokeWorker = () => worker.poke();
  const pokeMail = () => mailLoop.poke();

  const scheduleWebhookDelivery = makeScheduleWebhookDelivery({
    clock,
    logger,
    allowlist,
    vault,
    offer: (delivery) => worker.offer(delivery),
  });
  const runtime = createServiceRuntime<NotificationsDb>({
    ...deps,
    service: "notifications",
    migrations: notificationsMigrations,
    consumers: notificationsConsumers({ scheduleWebhookDelivery }),
  });
  const { db } = runtime;
  runtime.pruner.register({
    name: "webhook_attempts",
    retentionMs: runtime.retention.webhookAttemptsMs,
    deleteBatch: (cutoff, limit) => deleteAttemptsBefore(db, cutoff, limit),
  });

  const recordDeliveryAttempt = makeRecordDeliveryAttempt({ db, clock, pokeMail });
  const attemptDelivery = makeAttemptDelivery({
    db,
    clock,
    logger,
    failpoints: deps.failpoints,
    vault,
    sender,
    recordDeliveryAttempt,
  });
  const worker = new DeliveryWorker({ db, clock, logger, attempt: attemptDelivery, ...options.delivery });
  const dispatcher = new MailDispatcher({ db, clock, logger, mailer });
  const mailLoop = new BackgroundLoop({
    name: "mail",
    clock,
    logger,
    step: () => dispatcher.step(),
  });

  const useCases = notificationsUseCases({
    db,
    clock,
    logger,
    vault,
    sender,
    resolver,
    allowlist,
    pokeWorker,
  });
  return hostedNotifications({
    runtime,
    clock,
    options,
    vault,
    useCases,
    worker,
    dispatcher,
    mailLoop,
    sender,
    mailer,
  });
}

/** How webhooks reach receivers: the SSRF policy (and its test allowlist), the resolver, the sender. */
function webhookTransport(options: NotificationsServiceOptions, logger: Logger) {
  const allowlist = options.webhookTestAllowlist ?? AddressAllowlist.empty;
  if (allowlist.size > 0)
    logger.warn({ blocks: allowlist.size }, "webhook SSRF test allowlist is set: for tests only");
  const resolver = options.resolver ?? systemResolver;
  const sender =
    options.webhookSender ??
    new UndiciWebhookSender({ resolver, allowlist, ...(options.webhookCa ? { ca: options.webhookCa } : {}) });
  return { allowlist, resolver, sender };
}

/** The use cases behind the RPCs, wired to the parts the composition root built. */
function notificationsUseCases(parts: {
  db: Kysely<NotificationsDb>;
  clock: Clock;
  logger: Logger;
  vault: SigningSecretVault;
  sender: WebhookSender;
  resolver: Resolver;
  allowlist: AddressAllowlist;
  /** Wakes the delivery worker after deliveries were made due. */
  pokeWorker: () => void;
}): NotificationsUseCases {
  const { db, clock, logger, vault, sender, resolver, allowlist, pokeWorker } = parts;
  const checkUrl = makeCheckWebhookUrl({ resolver, allowlist, logger });
  return {
    createWebhookSecret: makeCreateWebhookSecret({ db, clock, vault }),
    rotateWebhookSecret: makeRotateWebhookSecret({ db, clock, vault }),
    getWebhookSettings: makeGetWebhookSettings({ db, clock }),
    listWebhookDeliveries: makeListWebhookDeliveries({ db }),
    getWebhookDelivery: makeGetWebhookDelivery({ db }),
    replayWebhookDelivery: makeReplayWebhookDelivery({ db, clock, allowlist, poke: pokeWorker }),
    resumeWebhookDeliveries: makeResumeWebhookDeliveries({ db, clock, poke: pokeWorker }),
    testWebhook: makeTestWebhook({ db, clock, vault, sender, checkUrl }),
    validateWebhookUrl: makeValidateWebhookUrl({ checkUrl }),
    listSentMail: makeListSentMail({ db }),
  };
}

type NotificationsRuntime = ReturnType<typeof createServiceRuntime<NotificationsDb>>;

/** The parts the composition root built, for the hosted service's lifecycle. */
interface NotificationsParts {
  runtime: NotificationsRuntime;
  clock: Clock;
  options: NotificationsServiceOptions;
  vault: SigningSecretVault;
  useCases: NotificationsUseCases;
  worker: DeliveryWorker;
  dispatcher: MailDispatcher;
  mailLoop: BackgroundLoop;
  sender: WebhookSender;
  mailer: Mailer;
}

/** Routes, start, stop and readiness of the composed service. */
function hostedNotifications(parts: NotificationsParts): NotificationsHostedService {
  const { runtime, clock, options, vault, useCases, worker, dispatcher, mailLoop, sender, mailer } = parts;
  const { db } = runtime;
  const rpc = createNotificationsRpc(useCases);
  const background = options.runBackgroundWork ?? true;
  let stopQueueMetrics: (() => void) | undefined;
  return {
    ...runtime.hosted,
    useCases,
    worker,
    deliverDue: () => worker.deliverDue(),
    prune: () => runtime.pruner.pruneAll(),
    dispatchMail: () => dispatcher.dispatchDue(),
    routes: (router) => {
      router.service(NotificationsService, rpc);
      runtime.routeDeadLetters(router);
    },
    async start() {
      // The KEK first: consumers seal a secret for an account's first delivery.
      vault.useKek(await resolveKek(options));
      await checkKek(db, vault);
      await runtime.hosted.start();
      stopQueueMetrics ??= observeWebhookQueue(db, clock);
      if (background) {
        worker.start();
        mailLoop.start();
      }
    },
    /** Final: the HTTP and SMTP connection pools are closed (a stopped service is not restarted). */
    async stop() {
      stopQueueMetrics?.();
      await mailLoop.stop();
      await worker.stop();
      await runtime.hosted.stop();
      if (!options.webhookSender) await sender.close();
      await mailer.close();
    },
    async readiness() {
      const base = await runtime.hosted.readiness();
      if (!background) return base;
      const checks: ReadinessCheck[] = [
        ...base.checks,
        { name: "webhook worker", ok: worker.isRunning() },
        { name: "mail dispatcher", ok: mailLoop.running() },
      ];
      return { ready: checks.every((check) => check.ok), checks };
    },
  };
}

/** A replica with another KEK would fail every signature: refuse to start instead. */
async function checkKek(db: Kysely<NotificationsDb>, vault: SigningSecretVault): Promise<void> {
  const foreign = await db
    .selectFrom("webhook_secrets")
    .select("kek_id")
    .where("kek_id", "<>", vault.kekId)
    .executeTakeFirst();
  if (foreign)
    throw new Error(
      `webhook signing secrets are sealed under key-encryption key ${foreign.kek_id}, but the configured one is ${vault.kekId}`,
    );
}
