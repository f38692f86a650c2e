/**
 * Sends the conformance suite's requests and checks every response the suite sees, its own
 * and those of the world's construction: never a status >= 500, every error the envelope
 * {"error":{"code","message","details"}}, every 2xx body valid against the documented schema,
 * every status documented, and (for the suite's own cases) the expected status. Each failure
 * is kept with its operation, case, caller, status and an excerpt of the body, so a report
 * says exactly what broke.
 */
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { type Contract, type Operation, envelopeProblems } from "./openapi-contract.js";

export interface Finding {
  operation: string;
  case: string;
  caller: string;
  status: number;
  problem: string;
  excerpt: string;
}

export interface ProbeRequest {
  operation: Operation;
  case: string;
  caller: string;
  /** Credential headers; none for anonymous. */
  credentials?: Record<string, string>;
  /** The path with its parameters filled in (already encoded), and the query string. */
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The statuses the case allows; undefined: any (the generic checks still apply). */
  expect?: readonly number[];
  /** A matrix cell (counted apart). */
  matrix?: boolean;
}

export interface ProbeResponse {
  status: number;
  text: string;
}

/**
 * Anonymous requests leave from several loopback addresses in turn: the gateway limits
 * anonymous requests per source address (60 a minute), and the suite sends more than that.
 */
/**
 * Answers the HTTP server gives before any operation is chosen (a request line or headers too
 * large, a malformed request): not an operation's to document, but still the error envelope.
 */
const BEFORE_ROUTING = [400, 414, 431];

const ANONYMOUS_SOURCES = Array.from({ length: 12 }, (_, i) => `127.0.0.${i + 2}`);

export class Probe {
  readonly findings: Finding[] = [];
  readonly totals = { requests: 0, validated2xx: 0, errorsChecked: 0, matrixCells: 0, observed: 0 };
  readonly operationsCovered = new Set<string>();
  readonly operations2xx = new Set<string>();
  private readonly byCaller = new Map<string, number>();
  private readonly anonymous = ANONYMOUS_SOURCES.map((localAddress) => {
    // Agent's connect options drop localAddress; a connector that sets it on each socket keeps it.
    const connector = buildConnector({});
    return new Agent({ connect: (options, callback) => connector({ ...options, localAddress }, callback) });
  });
  private turn = 0;

  constructor(
    private readonly contract: Contract,
    private readonly baseUrl: string,
  ) {}

  async send(request: ProbeRequest): Promise<ProbeResponse> {
    const url = `${this.baseUrl}${request.path}${request.query ? `?${request.query}` : ""}`;
    const dispatcher = request.credentials ? undefined : this.anonymous[this.turn++ % this.anonymous.length];
    let status: number;
    let text: string;
    let contentType: string | null;
    try {
      const response = await undiciFetch(url, {
        method: request.operation.method,
        headers: { ...request.credentials, ...request.headers },
        ...(request.body !== undefined && { body: request.body }),
        ...(dispatcher && { dispatcher }),
      });
      status = response.status;
      contentType = response.headers.get("content-type");
      text = await response.text();
    } catch (error) {
      // The connection failed or was reset: as bad as a 5xx for a client.
      status = 0;
      contentType = null;
      text = String((error as Error).cause ?? error);
    }
    this.totals.requests += 1;
    this.byCaller.set(request.caller, (this.byCaller.get(request.caller) ?? 0) + 1);
    if (request.matrix) this.totals.matrixCells += 1;
    this.inspect(request.operation, request.case, request.caller, status, contentType, text, request.expect);
    return { status, text };
  }

  /** Checks a response the world's construction received through the global fetch. */
  observe(method: string, url: string, status: number, contentType: string | null, text: string): void {
    if (!url.startsWith(this.baseUrl)) return;
    const pathname = new URL(url).pathname;
    const operation = this.contract.match(method, pathname);
    this.totals.observed += 1;
    if (!operation) {
      if (status >= 400) this.checkError(`${method} ${pathname}`, "world", "-", status, text);
      return;
    }
    this.inspect(operation, "world", "-", status, contentType, text);
  }

  private inspect(
    operation: Operation,
    name: string,
    caller: string,
    status: number,
    contentType: string | null,
    text: string,
    expected?: readonly number[],
  ): void {
    const id = operation.operationId;
    this.operationsCovered.add(id);
    const found = (problem: string) => {
      this.findings.push({ operation: id, case: name, caller, status, problem, excerpt: excerpt(text) });
    };
    if (status === 0) return found("no HTTP response (connection failed)");
    if (status >= 500) found("server error (>= 500)");
    if (expected && !expected.includes(status)) found(`expected ${expected.join(" or ")}`);
    if (status >= 400) {
      this.checkError(id, name, caller, status, text);
      if (!operation.responses[String(status)] && !BEFORE_ROUTING.includes(status))
        found(`status ${status} is not documented`);
      return;
    }
    if (status >= 200 && status < 300) {
      this.totals.validated2xx += 1;
      this.operations2xx.add(id);
    }
    for (const problem of this.contract.check(operation, status, contentType, text)) found(problem);
  }

  private checkError(operation: string, name: string, caller: string, status: number, text: string) {
    this.totals.errorsChecked += 1;
    const problems = envelopeProblems(text);
    if (problems.length > 0) {
      this.findings.push({
        operation,
        case: name,
        caller,
        status,
        problem: `not the error envelope: ${problems.join("; ")}`,
        excerpt: excerpt(text),
      });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.anonymous.map((agent) => agent.close()));
  }

  /** The closing summary: totals, then the failures grouped by problem. */
  report(operations: string[]): string {
    const lines = [
      "OpenAPI conformance summary",
      `  operations in the document: ${operations.length}; exercised: ${this.operationsCovered.size}; with a validated 2xx: ${this.operations2xx.size}`,
      `  requests sent by the suite: ${this.totals.requests} (+ ${this.totals.observed} observed while building the world)`,
      `  by caller: ${[...this.byCaller].map(([caller, n]) => `${caller} ${n}`).join(", ")}`,
      `  2xx bodies validated: ${this.totals.validated2xx}`,
      `  error responses checked: ${this.totals.errorsChecked}`,
      `  authorization matrix cells: ${this.totals.matrixCells}`,
      `  failures: ${this.findings.length}`,
    ];
    const without2xx = operations.filter((id) => !this.operations2xx.has(id));
    if (without2xx.length > 0) lines.push(`  operations without a 2xx seen: ${without2xx.join(", ")}`);
    const groups = new Map<string, Finding[]>();
    for (const finding of this.findings) {
      const key = finding.problem.replace(/\d{3} is not documented/, "NNN is not documented");
      groups.set(key, [...(groups.get(key) ?? []), finding]);
    }
    for (const [problem, findings] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
      lines.push(`  -- ${problem} (${findings.length})`);
      for (const f of findings) {
        lines.push(`     ${f.operation} [${f.case}] as ${f.caller}: ${f.status} ${f.excerpt}`);
      }
    }
    return lines.join("\n");
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 160 ? `${flat.slice(0, 160)}...` : flat;
}
