/**
 * POST a JSON text over a connection of its own and take the answer as soon as it comes, even
 * when the server stops reading the rest of the body.
 *
 * A server that refuses a body early (413) answers at once, reads on for a short while
 * (@hono/node-server drains for 500 ms) and then closes the connection. A client still writing
 * the body then fails with EPIPE, and fetch reports only that, not the 413 it was sent: on a
 * loaded machine a 2 MB body is not out within 500 ms. This reads the answer while writing and
 * passes over a write error that comes after it.
 *
 * Its own connection also keeps the request off a pooled keep-alive socket the server may have
 * closed while the test was building a large body.
 */
import { type IncomingMessage, request } from "node:http";

export interface PostAnswer {
  status: number;
  text: string;
  /** The answer parsed as JSON (undefined when empty). */
  body: any;
}

/** Reads the whole answer; `then` runs once it is in (before the promise settles). */
function readAnswer(
  response: IncomingMessage,
  resolve: (answer: PostAnswer) => void,
  reject: (error: Error) => void,
  then: () => void = () => undefined,
): void {
  const chunks: Buffer[] = [];
  response.on("data", (chunk: Buffer) => chunks.push(chunk));
  response.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    then();
    resolve({ status: response.statusCode ?? 0, text, body: text ? JSON.parse(text) : undefined });
  });
  response.on("error", reject);
}

export function postBody(url: string, headers: Record<string, string>, text: string): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
        },
      },
      (response) => {
        answered = true;
        readAnswer(response, resolve, reject);
      },
    );
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    outgoing.end(text);
  });
}

/**
 * A POST that declares `declaredBytes` of JSON body and sends none of it until answered: for a
 * body the server refuses by its declared length (413). The answer comes before any of the
 * body is read, so no write can race the close that follows it; the connection is dropped
 * once the answer is in.
 */
export function postDeclaredLengthOnly(
  url: string,
  headers: Record<string, string>,
  declaredBytes: number,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { ...headers, "content-type": "application/json", "content-length": declaredBytes },
      },
      (response) => readAnswer(response, resolve, reject, () => outgoing.destroy()),
    );
    outgoing.on("error", reject);
    outgoing.flushHeaders();
  });
}
