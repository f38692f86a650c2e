import { describe, expect, it } from "vitest";
import { ResponseTooLargeError, cappedFetch, isResponseTooLarge, readCappedText } from "./response-cap.js";

function fetchAnswering(chunks: string[], headers: Record<string, string> = {}): typeof fetch {
  return async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    return new Response(stream, { status: 200, headers });
  };
}

describe("cappedFetch", () => {
  it("passes a body within the limit through unchanged", async () => {
    const response = await cappedFetch(10, fetchAnswering(["12345", "67890"]))("http://127.0.0.1/");
    expect(await response.text()).toBe("1234567890");
    expect(response.status).toBe(200);
  });

  it("errors the body once it passes the limit", async () => {
    const response = await cappedFetch(8, fetchAnswering(["12345", "67890"]))("http://127.0.0.1/");
    const error = await response.text().catch((caught: unknown) => caught);
    expect(isResponseTooLarge(error)).toBe(true);
  });

  it("refuses a declared content-length above the limit before reading", async () => {
    const fetchLarge = fetchAnswering(["x"], { "content-length": "1000" });
    await expect(cappedFetch(10, fetchLarge)("http://127.0.0.1/")).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });
});

describe("readCappedText", () => {
  function body(chunks: string[]) {
    let destroyedWith: Error | undefined;
    return {
      destroyed: () => destroyedWith,
      destroy(error?: Error) {
        destroyedWith = error;
      },
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) yield new TextEncoder().encode(chunk);
      },
    };
  }

  it("reads up to the limit and destroys the stream past it", async () => {
    expect(await readCappedText(body(["ab", "cd"]), 4)).toBe("abcd");
    const tooLong = body(["ab", "cde"]);
    await expect(readCappedText(tooLong, 4)).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(tooLong.destroyed()).toBeInstanceOf(ResponseTooLargeError);
  });

  it("finds the error through causes", () => {
    expect(isResponseTooLarge(new Error("wrapped", { cause: new ResponseTooLargeError(1) }))).toBe(true);
    expect(isResponseTooLarge(new Error("other"))).toBe(false);
  });
});
