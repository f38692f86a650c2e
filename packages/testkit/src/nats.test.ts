import { createConnection } from "node:net";
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { natsServerAvailable, startNatsServer, type NatsServerHandle } from "./nats.js";

const available = natsServerAvailable();
if (!available && process.env.CI === "true") throw new Error("nats-server is required when CI=true");

/** The server's INFO line (the first thing a NATS server sends), or null if nobody answers. */
function serverInfo(port: number): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let buffer = "";
    const finish = (value: Record<string, unknown> | null) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(2_000, () => finish(null));
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      const end = buffer.indexOf("\r\n");
      if (end >= 0 && buffer.startsWith("INFO "))
        finish(JSON.parse(buffer.slice(5, end)) as Record<string, unknown>);
    });
    socket.on("error", () => finish(null));
  });
}

describe.skipIf(!available)("startNatsServer", () => {
  let server: NatsServerHandle | undefined;
  afterAll(async () => server?.stop());

  it("runs JetStream on loopback and comes back on the same port and store after SIGKILL", async () => {
    server = await startNatsServer();
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
    const info = await serverInfo(server.port);
    expect(info?.jetstream).toBe(true);
    expect(info?.host).toBe("127.0.0.1");

    const { port, storeDir } = server;
    await server.kill();
    expect(await serverInfo(port)).toBeNull();
    await server.restart();
    expect(server.port).toBe(port);
    expect(server.storeDir).toBe(storeDir);
    expect(existsSync(storeDir)).toBe(true);
    expect((await serverInfo(port))?.jetstream).toBe(true);
  });
});
