import ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";

import { AUTOPROTOCOL_SCHEMA } from "./schema-document.js";
import type { Violation } from "./violation.js";

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    // ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class.
    const ajv = new ajv2020.default({
      allErrors: true,
      discriminator: true,
      strict: true,
      strictRequired: false,
    });
    compiled = ajv.compile(AUTOPROTOCOL_SCHEMA);
  }
  return compiled;
}

/** At most this many schema violations are reported: one broken field repeats down a long list. */
const MAX_SCHEMA_VIOLATIONS = 50;

export function schemaViolations(document: unknown): Violation[] {
  const validate = validator();
  if (validate(document)) return [];
  return (validate.errors ?? []).slice(0, MAX_SCHEMA_VIOLATIONS).map((error: ErrorObject) => ({
    path: error.instancePath || "/",
    rule: "schema",
    message: `${error.keyword}: ${error.message ?? "invalid"}${describeParams(error)}`,
  }));
}

function describeParams(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (typeof params.additionalProperty === "string") return ` (${params.additionalProperty})`;
  if (Array.isArray(params.allowedValues)) return ` (${params.allowedValues.join(", ")})`;
  return "";
}
