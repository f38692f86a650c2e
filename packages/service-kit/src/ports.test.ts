import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, portFree } from "./ports.js";

describe("ports", () => {
  it("freePort answers a port that can be bound, and portFree says false while it is held", async () => {
    const port = await freePort();
    expect(await portFree(port)).toBe(true);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      expect(await portFree(port)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
