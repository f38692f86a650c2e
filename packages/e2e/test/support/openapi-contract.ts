/**
 * The committed OpenAPI document (gateway/openapi.json) as a contract to check responses
 * against: its operations, the path templates that find the operation of a request, and the
 * documented response schemas compiled with ajv (JSON Schema 2020-12, which OpenAPI 3.1
 * uses) and ajv-formats. It reads the document, never the gateway's code.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Schema;
}

export type Schema = Record<string, any>;

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, resolved one level ($ref to its component). */
  body?: { schema: Schema; required: boolean };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  /** False for `security: []` (public operations). */
  authenticated: boolean;
  deprecated: boolean;
}

const DOCUMENT_PATH = path.resolve(import.meta.dirname, "../../../../gateway/openapi.json");

export class Contract {
  readonly document: any;
  readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ operation: Operation; pattern: RegExp; literal: number }>;

  constructor(document: any = JSON.parse(readFileSync(DOCUMENT_PATH, "utf8"))) {
    this.document = document;
    // strict: false: OpenAPI keywords (example, discriminator, ...) are not JSON Schema's.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats brings its own copy of ajv's types (same version, another path).
    addFormats.default(this.ajv as never);
    // The whole document is one schema resource, so #/components/schemas/X refs resolve.
    this.ajv.addSchema({ ...document, $id: "openapi.json" }, "openapi.json");
    this.operations = [];
    for (const [route, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (!operation?.responses) continue;
        const json = operation.requestBody?.content?.["application/json"]?.schema;
        this.operations.push({
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path: route,
          parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
          ...(json && {
            body: { schema: this.resolve(json), required: operation.requestBody.required === true },
          }),
          responses: operation.responses,
          authenticated: !(Array.isArray(operation.security) && operation.security.length === 0),
          deprecated: operation.deprecated === true,
        });
      }
    }
    this.templates = this.operations
      .map((operation) => ({
        operation,
        pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
        // Literal segments win over parameters (/engine/active before /engine/runs/{id}).
        literal: operation.path.replace(/\{[^}]+\}/g, "").length,
      }))
      .sort((a, b) => b.literal - a.literal);
  }

  /** A $ref to a component schema, resolved (one level). */
  resolve(schema: Schema): Schema {
    if (typeof schema.$ref !== "string") return schema;
    const name = schema.$ref.split("/").pop()!;
    return this.document.components.schemas[name];
  }

  operation(operationId: string): Operation {
    const found = this.operations.find((o) => o.operationId === operationId);
    if (!found) throw new Error(`no operation ${operationId} in the document`);
    return found;
  }

  /** The operation a request goes to, by method and path (undefined: not in the document). */
  match(method: string, pathname: string): Operation | undefined {
    return this.templates.find((t) => t.operation.method === method.toUpperCase() && t.pattern.test(pathname))
      ?.operation;
  }

  /**
   * What is wrong with a response by the document (empty: nothing): an undocumented status,
   * an undocumented media type, or a JSON body its schema rejects.
   */
  check(operation: Operation, status: number, contentType: string | null, text: string): string[] {
    const documented = operation.responses[String(status)];
    if (!documented) return [`status ${status} is not documented`];
    const content = documented.content;
    if (!content) return [];
    const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const key = Object.keys(content).find(
      (k) => k === mediaType || k === "*/*" || (k.endsWith("/*") && mediaType.startsWith(k.slice(0, -1))),
    );
    if (!key)
      return [`media type ${mediaType || "(none)"} is not documented (${Object.keys(content).join(", ")})`];
    if (key !== "application/json") return [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return ["the body is not JSON"];
    }
    const pointer = `openapi.json#/paths/${pointerSegment(operation.path)}/${operation.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(pointer);
      if (!validate) return [`no schema at ${pointer}`];
      this.validators.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }
}

/** A JSON pointer segment. */
function pointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1").replace(/\{/g, "%7B").replace(/\}/g, "%7D");
}

/** The error envelope every error response has: {"error": {"code", "message", "details"}}. */
export function envelopeProblems(text: string): string[] {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return ["the error body is not JSON"];
  }
  const error = body?.error;
  const problems: string[] = [];
  if (!body || typeof body !== "object" || Array.isArray(body) || Object.keys(body).join() !== "error")
    problems.push('the body is not {"error": ...} alone');
  if (!error || typeof error !== "object") return [...problems, "no error object"];
  if (typeof error.code !== "string" || error.code === "") problems.push("error.code is not a string");
  if (typeof error.message !== "string") problems.push("error.message is not a string");
  if (!error.details || typeof error.details !== "object" || Array.isArray(error.details))
    problems.push("error.details is not an object");
  if (error.code === "validation_failed") {
    const errors = error.details?.errors;
    const wellFormed =
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every(
        (e: any) =>
          typeof e?.field === "string" && typeof e?.code === "string" && typeof e?.message === "string",
      );
    if (!wellFormed) problems.push("validation_failed without details.errors=[{field,code,message}]");
  }
  return problems;
}
