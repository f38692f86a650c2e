/**
 * A webhook receiver on https://127.0.0.1 for the e2e scenarios. It answers 200, keeps every
 * request (headers and the raw body bytes), and checks signatures with its own node:crypto code,
 * never the service's: X-Service-Signature (HMAC-SHA256 of the raw body keyed with the secret
 * text, docs/api.md) and the Standard Webhooks `webhook-signature` (HMAC-SHA256 of
 * `id.timestamp.body` keyed with the base64-decoded part after `whsec_`).
 *
 * Its certificate is self-signed for 127.0.0.1; the services trust it through the test-only
 * PETRI_WEBHOOK_TEST_CA_FILE and reach it through PETRI_WEBHOOK_TEST_ALLOWLIST.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { type Server, createServer } from "node:https";
import { loopbackCertificate, writeCaFile } from "@petri/testkit";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  json: { event: string; experiment_id: string; timestamp: string; data: Record<string, unknown> };
}

export const WEBHOOK_TEST_ALLOWLIST = "127.0.0.1/32";

let certificate: Promise<{ cert: string; key: string; caFile: string }> | undefined;

/** One certificate per test process, its PEM also written to a file for the services' config. */
export function receiverCertificate() {
  certificate ??= loopbackCertificate("petri-e2e-receiver").then((pems) => ({
    ...pems,
    caFile: writeCaFile(pems.cert, "petri-e2e-ca"),
  }));
  return certificate;
}

export class WebhookReceiver {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    /** Every request so far, in arrival order. */
    readonly received: ReceivedWebhook[],
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const { cert, key } = await receiverCertificate();
    const received: ReceivedWebhook[] = [];
    const server = createServer({ cert, key }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          if (typeof value === "string") headers[name] = value;
        received.push({
          path: request.url ?? "",
          headers,
          body,
          json: JSON.parse(body.toString()),
        });
        response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("receiver has no port");
    return new WebhookReceiver(server, `https://127.0.0.1:${address.port}`, received);
  }

  forExperiment(experimentId: string): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.json.experiment_id === experimentId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function equalText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** docs/api.md: `X-Service-Signature: sha256=<hex of HMAC-SHA256(secret, raw body)>` (any listed value). */
export function serviceSignatureValid(hook: ReceivedWebhook, secret: string): boolean {
  const expected = `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(hook.body).digest("hex")}`;
  return (hook.headers["x-service-signature"] ?? "").split(", ").some((value) => equalText(value, expected));
}

/** Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`. */
export function standardSignatureValid(hook: ReceivedWebhook, secret: string): boolean {
  const id = hook.headers["webhook-id"];
  const timestamp = hook.headers["webhook-timestamp"];
  if (!id || !timestamp || !secret.startsWith("whsec_")) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), hook.body]);
  const expected = `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
  return (hook.headers["webhook-signature"] ?? "").split(" ").some((value) => equalText(value, expected));
}
