/**
 * The results submission body (docs/api.md, POST /operator/jobs/{experiment_id}/submit) read as a
 * stream and turned into the messages of the experiments service's UploadResults, so that the
 * gateway holds no whole body and no whole file: only the non-file fields (small) and one piece
 * of base64 text at a time.
 *
 * The body goes through a streaming JSON tokenizer (stream-json's, called directly on each chunk
 * of text: a Node object stream per token would cost more than the tokenizing) that hands
 * string values over in pieces. A string at one of the three places files go (raw_data_uploads[i].content_base64,
 * documentation.photos[i].image_base64, documentation.lab_notebook_base64) is sent on as it
 * comes, in pieces of at most PIECE_CHARS, and replaced by "" in the rest of the body, which is
 * rebuilt as JSON text (numbers exactly as written) and sent last. The service decodes and
 * checks the files strictly and validates the rest as for SubmitResults.
 *
 * The checks every JSON body gets apply here too: nesting at most MAX_JSON_DEPTH levels, and
 * no NUL and no lone surrogate in any key or string (422 naming the field). A body that is not
 * JSON, or not an object, is 422 validation_failed; one past the route's limit (the body
 * limit's counter fails the stream) is 413 payload_too_large.
 */
import { create } from "@bufbuild/protobuf";
import { type UploadResultsRequest, UploadResultsRequestSchema } from "@petri/contracts/experiments";
import { MAX_JSON_DEPTH, unsafeTextFieldError, unsafeTextReason } from "@petri/service-kit";
import { getManyValues, isMany, none } from "stream-chain/defs.js";
import { jsonParser } from "stream-json/core/parser.js";
import { BodyTooLargeError } from "./body-limit.js";
import { errorBody } from "./problem.js";

/** Largest piece of a file's base64 text in one message (characters, all ASCII when valid). */
export const PIECE_CHARS = 64 * 1024;
/** Largest JSON text of the non-file fields the gateway holds (the service accepts 4 MiB). */
export const MAX_FIELDS_CHARS = 8 * 1024 * 1024;

/** Why the body was refused, with the public answer to give (the handler throws it as is). */
export class UploadRefused extends Error {
  constructor(
    readonly status: 413 | 422,
    readonly body: ReturnType<typeof errorBody>,
  ) {
    super(body.error.message);
    this.name = "UploadRefused";
  }
}

function invalid(field: string, message: string, summary = "the results are invalid"): UploadRefused {
  return new UploadRefused(
    422,
    errorBody("validation_failed", summary, {
      errors: [{ field, path: field, code: "invalid_value", message }],
    }),
  );
}

function notJson(): UploadRefused {
  return new UploadRefused(
    422,
    errorBody("validation_failed", "the request body is not valid JSON", {
      errors: [{ field: "", path: "", code: "invalid_value", message: "malformed JSON" }],
    }),
  );
}

type Segment = string | number;

interface Frame {
  readonly kind: "object" | "array";
  /** Members written so far (for the commas of the rebuilt text). */
  count: number;
  /** The key of the member being read (objects). */
  key?: string;
}

/** `raw_data_uploads[0].content_base64`: the path form the service's field errors use. */
export function formatField(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Whether a string at `path` is a file's content (docs/api.md: where the submit body puts files). */
function isFileContent(path: readonly Segment[]): boolean {
  const [a, b, c, d] = path;
  if (path.length === 3) return a === "raw_data_uploads" && typeof b === "number" && c === "content_base64";
  if (path.length === 2) return a === "documentation" && b === "lab_notebook_base64";
  return (
    path.length === 4 &&
    a === "documentation" &&
    b === "photos" &&
    typeof c === "number" &&
    d === "image_base64"
  );
}

/** What is wrong with text PostgreSQL would refuse (the generic JSON checks' wording), if anything. */
function textProblem(text: string): string | undefined {
  const reason = unsafeTextReason(text);
  return reason && unsafeTextFieldError("", reason).message;
}

type Token = { name: string; value?: unknown };

function valuesOf(out: unknown): Token[] {
  if (out === none) return [];
  return isMany(out) ? (getManyValues(out) as Token[]) : [out as Token];
}

const PARSER_OPTIONS = {
  packKeys: true,
  streamKeys: false,
  packStrings: false,
  streamStrings: true,
  packNumbers: true,
  streamNumbers: false,
} as const;

type UploadPart = UploadResultsRequest["part"];

const message = (part: UploadPart) => create(UploadResultsRequestSchema, { part });

/** The tokens of each chunk of the body as it arrives (the last ones, then none, at its end). */
async function* tokensOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Token[]> {
  const tokenize = jsonParser(PARSER_OPTIONS);
  const utf8 = new TextDecoder("utf-8");
  for (;;) {
    const { done, value } = await reader.read();
    if (!done) {
      yield valuesOf(tokenize(utf8.decode(value, { stream: true })));
      continue;
    }
    const tail = utf8.decode();
    const last = tail === "" ? [] : valuesOf(tokenize(tail));
    // The tokenizer's end of input (a flushable's `none`): what it held, or its error.
    const end = (tokenize as unknown as (input: typeof none) => unknown)(none);
    yield [...last, ...valuesOf(end)];
    return;
  }
}

/**
 * Turns the body's JSON tokens into upload messages: a file's text goes out in pieces as it
 * arrives (replaced by "" in the fields), every other value is written back into the fields
 * text, which is sent last. Checks the object shape, the depth, the text of keys and strings,
 * and the size of what it holds (the fields).
 */
class UploadTranslator {
  private readonly stack: Frame[] = [];
  private readonly path: Segment[] = [];
  private readonly fields: string[] = [];
  private fieldsChars = 0;
  private started = false;
  private finished = false;
  /** The string being read: a file's (sent in pieces) or another (kept whole, it is small). */
  private text: { file: boolean; field: string; pending: string; parts: string[] } | undefined;

  /** Takes one token; the messages it completes go to `out`. */
  take(token: Token, out: UploadPart[]): void {
    if (!this.started && token.name !== "startObject") {
      throw invalid("", "the request body must be a JSON object", "the request is invalid");
    }
    switch (token.name) {
      case "startObject":
      case "startArray":
        return this.open(token.name === "startObject" ? "object" : "array");
      case "endObject":
      case "endArray": {
        const frame = this.stack.pop()!;
        this.write(frame.kind === "object" ? "}" : "]");
        return this.endValue();
      }
      case "keyValue":
        return this.key(token.value as string);
      case "startString":
        return this.startString(out);
      case "stringChunk":
        return this.stringChunk(token.value as string, out);
      case "endString":
        return this.endString(out);
      case "numberValue":
        return this.scalar(token.value as string);
      case "trueValue":
      case "falseValue":
      case "nullValue":
        return this.scalar(String(token.value));
      default:
        return;
    }
  }

  /** The fields text, once the body's one JSON value ended. */
  finish(): UploadPart {
    if (!this.finished) throw notJson();
    return { case: "fieldsJson", value: this.fields.join("") };
  }

  private open(kind: Frame["kind"]): void {
    this.beginValue();
    if (this.stack.length >= MAX_JSON_DEPTH) {
      throw invalid(formatField(this.path), `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);
    }
    this.stack.push({ kind, count: 0 });
    this.write(kind === "object" ? "{" : "[");
  }

  private key(key: string): void {
    const problem = textProblem(key);
    if (problem) throw invalid(formatField([...this.path, key]), `the key ${problem}`);
    const top = this.stack.at(-1)!;
    if (top.count > 0) this.write(",");
    top.key = key;
    this.write(`${JSON.stringify(key)}:`);
  }

  private startString(out: UploadPart[]): void {
    this.beginValue();
    const field = formatField(this.path);
    const file = isFileContent(this.path);
    this.text = { file, field, pending: "", parts: [] };
    if (file) {
      this.write('""');
      out.push({ case: "fileField", value: field });
    }
  }

  private stringChunk(piece: string, out: UploadPart[]): void {
    const current = this.text!;
    if (!current.file) {
      this.grow(piece.length);
      current.parts.push(piece);
      return;
    }
    // A piece is as long as the tokenizer read at once (a socket read, 64 KiB), or more
    // in a test's single chunk: sent on in pieces of at most PIECE_CHARS.
    current.pending += piece;
    while (current.pending.length >= PIECE_CHARS) {
      const value = current.pending.slice(0, PIECE_CHARS);
      current.pending = current.pending.slice(PIECE_CHARS);
      const problem = textProblem(value);
      if (problem) throw invalid(current.field, `${current.field} ${problem}`);
      out.push({ case: "fileBase64", value });
    }
  }

  private endString(out: UploadPart[]): void {
    const current = this.text!;
    this.text = undefined;
    if (current.file) {
      if (current.pending !== "") {
        const problem = textProblem(current.pending);
        if (problem) throw invalid(current.field, `${current.field} ${problem}`);
        out.push({ case: "fileBase64", value: current.pending });
      }
    } else {
      const value = current.parts.join("");
      const problem = textProblem(value);
      if (problem) throw invalid(current.field, `${current.field || "the value"} ${problem}`);
      // Counted piece by piece already.
      this.fields.push(JSON.stringify(value));
    }
    this.endValue();
  }

  private scalar(text: string): void {
    this.beginValue();
    this.write(text);
    this.endValue();
  }

  /** Counts what the gateway holds of the non-file fields: past MAX_FIELDS_CHARS, 413. */
  private grow(chars: number): void {
    this.fieldsChars += chars;
    if (this.fieldsChars > MAX_FIELDS_CHARS) {
      throw new UploadRefused(
        413,
        errorBody(
          "payload_too_large",
          `the fields other than files are larger than ${MAX_FIELDS_CHARS} characters`,
          {
            max_bytes: MAX_FIELDS_CHARS,
          },
        ),
      );
    }
  }

  private write(chunk: string): void {
    this.grow(chunk.length);
    this.fields.push(chunk);
  }

  /** Before a value: the comma, and where the value sits. */
  private beginValue(): void {
    if (this.finished)
      throw invalid("", "the body holds more than one JSON value", "the request body is not valid JSON");
    const top = this.stack.at(-1);
    if (!top) {
      this.started = true;
      return;
    }
    if (top.kind === "array") {
      if (top.count > 0) this.write(",");
      this.path.push(top.count);
    } else {
      this.path.push(top.key!);
    }
    top.count += 1;
  }

  private endValue(): void {
    if (this.stack.length === 0) this.finished = true;
    else this.path.pop();
  }
}

/**
 * The UploadResults messages for `body`: the experiment id first (so the service checks the
 * caller and state before any file arrives), then the files in pieces, then the other fields.
 * Throws UploadRefused for a body the gateway refuses itself.
 */
export async function* uploadMessages(
  experimentId: string,
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<UploadResultsRequest> {
  yield message({ case: "experimentId", value: experimentId });
  const translator = new UploadTranslator();
  const reader = body.getReader();
  const out: UploadPart[] = [];
  try {
    for await (const batch of tokensOf(reader))
      for (const token of batch) {
        translator.take(token, out);
        for (const part of out) yield message(part);
        out.length = 0;
      }
  } catch (error) {
    if (error instanceof UploadRefused) throw error;
    if (error instanceof BodyTooLargeError) {
      throw new UploadRefused(
        413,
        errorBody("payload_too_large", error.message, { max_bytes: error.maxBytes }),
      );
    }
    // The tokenizer's own errors: the text is not JSON. Anything else (the client went away)
    // is not the body's fault.
    if (error instanceof Error && error.message.startsWith("Parser ")) throw notJson();
    throw error;
  } finally {
    // The caller may still read (and discard) the rest: see discardBody.
    reader.releaseLock();
  }
  yield message(translator.finish());
}

/**
 * Reads what is left of a body and throws it away, holding nothing: answering before the client
 * has sent it all makes many clients fail to read the answer. Ends at the body's end, or at once
 * when it cannot be read (past the body limit, the client gone, still locked).
 */
export async function discardBody(body: ReadableStream<Uint8Array>): Promise<void> {
  try {
    const reader = body.getReader();
    while (!(await reader.read()).done);
  } catch {
    // Nothing more to read.
  }
}
