/**
 * Every outbound call reads at most a fixed number of bytes (docs/architecture.md section 6): an
 * upstream that streams without end must not exhaust the caller's memory.
 */

export class ResponseTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the response exceeded ${limitBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/** True when `error` or one of its causes is a ResponseTooLargeError. */
export function isResponseTooLarge(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof ResponseTooLargeError) return true;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return false;
}

/** A fetch whose responses error once their body passes `limitBytes` (for the OpenAI SDK). */
export function cappedFetch(limitBytes: number, underlying: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await underlying(input, init);
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(limitBytes);
    }
    if (!response.body) return response;
    let received = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.byteLength;
          if (received > limitBytes) controller.error(new ResponseTooLargeError(limitBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Reads a Node stream (an undici body) to a string, destroying it once it passes `limitBytes`. */
export async function readCappedText(
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown },
  limitBytes: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > limitBytes) {
      const error = new ResponseTooLargeError(limitBytes);
      body.destroy(error);
      throw error;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
