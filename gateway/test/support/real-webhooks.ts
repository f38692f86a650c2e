/**
 * Webhooks on the real services: an HTTPS receiver on 127.0.0.1 that the services trust
 * through their test-only settings (the allowlist and CA that PETRI_WEBHOOK_TEST_ALLOWLIST
 * and PETRI_WEBHOOK_TEST_CA_FILE set in a host, as packages/bench's receiver uses them), and
 * set-ups through the public API: an experiment posting to it, claimed by a lab.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Server, createServer } from "node:https";
import { rootCertificates } from "node:tls";
import { validRequests } from "@petri/fixtures";
import { AddressAllowlist } from "@petri/service-kit";
import { loopbackCertificate } from "@petri/testkit";
import { afterAll, beforeAll, expect } from "vitest";
import { marketplaceHelpers } from "./real-marketplace.js";
import { type RealServices, type RealServicesScope, eventually } from "./real-services.js";
import { bodyOf } from "./requests.js";

/** How the receiver answers a path: a status, or "drop" (the connection closes unanswered). */
export type ReceiverAnswer = number | "drop";

export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export class WebhookReceiver {
  /** Every request, oldest first. */
  readonly received: ReceivedWebhook[] = [];
  private readonly answers = new Map<string, ReceiverAnswer>();
  private held: Array<() => void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The receiver's certificate, which the services trust as a CA. */
    readonly certificate: string,
    /** https://127.0.0.1:<port> */
    readonly origin: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const pems = await loopbackCertificate("petri-gateway-test-receiver");
    const server = createServer({ cert: pems.cert, key: pems.key });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the receiver has no port");
    const receiver = new WebhookReceiver(server, pems.cert, `https://127.0.0.1:${address.port}`);
    server.on("request", (request: IncomingMessage, response: ServerResponse) =>
      receiver.receive(request, response),
    );
    return receiver;
  }

  /** Answers `path` with `answer` from now on (default 200). */
  answer(path: string, answer: ReceiverAnswer): void {
    this.answers.set(path, answer);
  }

  /** Holds every answer until release(): attempts stay in flight meanwhile. */
  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const answer of held) answer();
  }

  /** The requests that reached `path`. */
  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** The settings under which the services deliver here (and nowhere else private). */
  serviceSettings(options: { experimentsAllow?: string } = {}) {
    const allowlist = AddressAllowlist.of(["127.0.0.1/32"]);
    return {
      notifications: { webhookTestAllowlist: allowlist, webhookCa: [...rootCertificates, this.certificate] },
      experiments: {
        webhookUrlCheck: {
          allowlist: options.experimentsAllow ? AddressAllowlist.of([options.experimentsAllow]) : allowlist,
        },
      },
    };
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      const answer = this.answers.get(path) ?? 200;
      const send = () =>
        answer === "drop" ? request.socket.destroy() : response.writeHead(answer).end("ok");
      if (this.held) this.held.push(send);
      else send();
    });
  }
}

/**
 * A receiver for the enclosing describe block, started before its tests (before services
 * declared after it, which trust it) and closed after them.
 */
export function receiverOfBlock(): () => WebhookReceiver {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return () => receiver!;
}

/** The pause fields of an account's webhook settings while its deliveries are not paused. */
export const NOT_PAUSED = {
  paused: false,
  paused_at: null,
  paused_by_delivery_id: null,
  paused_deliveries: 0,
};

/** The notifications service of `petri`: its delivery worker and mail dispatcher, run on demand. */
export function notificationsOf(petri: RealServices) {
  const hosted = petri.services.services.find((service) => service.name === "notifications");
  if (!hosted) throw new Error("no notifications service");
  return hosted as unknown as { deliverDue(): Promise<number>; dispatchMail(): Promise<number> };
}

/** The retry delays after failures 1 to 4 of a cycle (docs/api.md, Events). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

export function webhookHelpers(scope: Pick<RealServicesScope, "petri" | "call" | "clock">) {
  const { petri, call, clock } = scope;
  const marketplace = marketplaceHelpers(scope);
  // A lab holds at most 5 active jobs (the marketplace's capacity filter): a new lab every 5 claims.
  let lab: Promise<{ apiKey: string }> | undefined;
  let claims = 0;

  /** An open experiment of `requesterKey`'s whose events go to `url`. */
  async function experimentPostingTo(requesterKey: string, url: string) {
    const posted = await call(
      "POST",
      "/experiments",
      {
        ...validRequests.MIC_MBC_ASSAY,
        communication_preferences: {
          webhook_url: url,
          notification_events: ["claimed", "started"],
          preferred_contact: "webhook",
        },
      },
      requesterKey,
    );
    const body = await bodyOf(posted);
    expect(posted.status, JSON.stringify(body)).toBe(201);
    return body.experiment_id as string;
  }

  /** The deliveries of `experimentId` as its requester lists them, once there are `count`. */
  const deliveriesOf = (requesterKey: string, experimentId: string, count = 1) =>
    eventually(async () => {
      const page = await bodyOf(
        await call("GET", `/webhooks/deliveries?experiment_id=${experimentId}`, undefined, requesterKey),
      );
      return page.deliveries?.length >= count ? (page.deliveries as any[]) : undefined;
    }, `${count} deliveries of ${experimentId}`);

  /**
   * An experiment posting to `url`, claimed by this file's lab: its "claimed" delivery, once
   * the notifications service scheduled it (the first attempt runs at once).
   */
  async function claimedDelivery(requesterKey: string, url: string) {
    if (claims % 5 === 0) lab = marketplace.activeLab(`Webhook Lab ${claims / 5 + 1}`);
    claims += 1;
    const experimentId = await experimentPostingTo(requesterKey, url);
    expect((await marketplace.claim((await lab!).apiKey, experimentId)).status).toBe(200);
    const [delivery] = await deliveriesOf(requesterKey, experimentId);
    return { experimentId, deliveryId: delivery.delivery_id as string };
  }

  /** The delivery as its owner reads it, once `done` says it is. */
  const deliveryOnceIt = (key: string, deliveryId: string, done: (delivery: any) => boolean, what: string) =>
    eventually(async () => {
      const delivery = await bodyOf(await call("GET", `/webhooks/deliveries/${deliveryId}`, undefined, key));
      return done(delivery) ? delivery : undefined;
    }, what);

  /** Runs the rest of a failing delivery's cycle: four more attempts, each when due, then the pause. */
  async function failUntilPaused(key: string, deliveryId: string) {
    for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
      await deliveryOnceIt(key, deliveryId, (d) => d.attempt_count === index + 1, `attempt ${index + 1}`);
      await clock.advance(delay);
      await notificationsOf(petri()).deliverDue();
    }
    await eventually(async () => {
      const settings = await bodyOf(await call("GET", "/webhooks/settings", undefined, key));
      return settings.paused ? settings : undefined;
    }, "the pause");
  }

  /** Waits until `receiver` got a request at `path`. */
  const eventuallyReceived = (receiver: WebhookReceiver, path: string) =>
    eventually(async () => (receiver.at(path).length > 0 ? true : undefined), `a request at ${path}`);

  return {
    ...marketplace,
    experimentPostingTo,
    claimedDelivery,
    deliveryOnceIt,
    failUntilPaused,
    eventuallyReceived,
  };
}
