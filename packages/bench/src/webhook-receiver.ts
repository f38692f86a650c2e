/**
 * The webhook receiver of the claim -> first webhook attempt row: HTTPS on 127.0.0.1 with a
 * self-signed certificate, which the Petri hosts trust through their test-only settings
 * PETRI_WEBHOOK_TEST_CA_FILE and PETRI_WEBHOOK_TEST_ALLOWLIST (hostSettings). It answers 200 at
 * once and notes when the first delivery of each (experiment, event) arrived.
 */
import { rmSync } from "node:fs";
import { type Server, createServer } from "node:https";
import path from "node:path";
import { loopbackCertificate, writeCaFile } from "@petri/testkit";

export class WebhookReceiver {
  private constructor(
    /** "<experiment_id> <event>" -> performance.now() of its first delivery. */
    private readonly firstArrival: Map<string, number>,
    private readonly server: Server,
    private readonly caDir: string,
    readonly url: string,
    /** The environment the Petri hosts need to deliver here. */
    readonly hostSettings: Record<string, string>,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const pems = await loopbackCertificate("petri-bench-receiver");
    const caFile = writeCaFile(pems.cert, "petri-bench-ca");
    const caDir = path.dirname(caFile);
    const arrivals = new Map<string, number>();
    const server = createServer({ cert: pems.cert, key: pems.key }, (request, response) => {
      const arrived = performance.now();
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/plain" }).end("ok");
        try {
          const { experiment_id, event } = JSON.parse(Buffer.concat(chunks).toString()) as {
            experiment_id?: string;
            event?: string;
          };
          const key = `${experiment_id} ${event}`;
          if (!arrivals.has(key)) arrivals.set(key, arrived);
        } catch {
          // not a delivery (a probe): nothing to time
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("receiver has no port");
    return new WebhookReceiver(arrivals, server, caDir, `https://127.0.0.1:${address.port}`, {
      PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/32",
      PETRI_WEBHOOK_TEST_CA_FILE: caFile,
    });
  }

  /** When the first delivery of `event` for `experimentId` arrived (performance.now()), if it has. */
  arrival(experimentId: string, event: string): number | undefined {
    return this.firstArrival.get(`${experimentId} ${event}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.caDir, { recursive: true, force: true });
  }
}
