/**
 * The request's fields and sections: unknown fields, each section parsed on its own (an error
 * in one does not hide the others), sections that belong to another experiment type, and the
 * fields a request cannot go without.
 */
import type { z } from "zod";

import type { ExperimentTypeName } from "@petri/contracts/vocabulary";
import { fieldMessage, readableMessage, toRequestErrors } from "../issues.js";
import type { ParsedSections } from "../normalize.js";
import { child, formatPath } from "../paths.js";
import { collectMissing } from "../required.js";
import {
  REQUEST_FIELDS,
  REQUEST_SECTION_SCHEMAS,
  TYPE_SECTIONS,
  TYPE_SECTION_SCHEMAS,
  type RequestSectionKey,
  type TypeSectionKey,
} from "../schema/request.js";
import type { Findings } from "./findings.js";
import type { RawRequest } from "./raw-request.js";

export function checkUnknownFields(request: RawRequest, findings: Findings): void {
  for (const key of Object.keys(request.body)) {
    if (!REQUEST_FIELDS.includes(key)) {
      findings.errors.push({
        path: formatPath([key]),
        code: "invalid_value",
        message: `Unknown field ${JSON.stringify(key)}: it is not part of the experiment request`,
      });
    }
  }
}

/** Parses every section sent; zod issues become readable errors, absent fields `missing`. */
export function parseSections(request: RawRequest, findings: Findings): ParsedSections {
  const sections: ParsedSections = {};
  for (const key of Object.keys(REQUEST_SECTION_SCHEMAS) as RequestSectionKey[]) {
    const value = request.get(key);
    if (value === undefined) continue;
    const schema = REQUEST_SECTION_SCHEMAS[key] as z.ZodType;
    const parsed = schema.safeParse(value, { error: readableMessage });
    if (parsed.success) (sections as Record<string, unknown>)[key] = parsed.data;
    else findings.errors.push(...toRequestErrors(parsed.error, [key]));
    for (const field of collectMissing(schema, value, [key])) {
      findings.missing.push({
        path: formatPath(field.path),
        message: field.message ? capitalise(field.message) : fieldMessage(field.path, "is required"),
      });
    }
  }
  return sections;
}

/** Sections of other experiment types, and a custom protocol where none applies. */
export function checkForeignTypeSections(
  request: RawRequest,
  type: ExperimentTypeName,
  findings: Findings,
): void {
  const allowed = new Set<TypeSectionKey>(TYPE_SECTIONS[type]);
  if (request.protocolType === "custom") allowed.add("custom_protocol");
  for (const key of Object.keys(TYPE_SECTION_SCHEMAS) as TypeSectionKey[]) {
    if (request.get(key) === undefined || allowed.has(key)) continue;
    findings.errors.push({
      path: key,
      code: "invalid_value",
      message:
        key === "custom_protocol"
          ? `A custom protocol applies to experiment_type CUSTOM or with protocol.type custom, not to ${type}`
          : `Section ${key} does not apply to experiment_type ${type} (its section is ${TYPE_SECTIONS[type].join(" or ")})`,
    });
  }
  if (
    child(request.protocol, "custom_protocol") !== undefined &&
    type !== "CUSTOM" &&
    request.protocolType !== "custom"
  ) {
    findings.errors.push({
      path: "protocol.custom_protocol",
      code: "invalid_value",
      message: `A custom protocol applies to experiment_type CUSTOM or with protocol.type custom, not to ${type}`,
    });
  }
}

/** Title, hypothesis, budget and the type's own section. */
export function checkRequiredFields(
  request: RawRequest,
  type: ExperimentTypeName | undefined,
  findings: Findings,
): void {
  const { missing } = findings;
  if (request.get("title") === undefined)
    missing.push({ path: "title", message: "title is required (5 to 200 characters)" });
  if (request.get("hypothesis") === undefined) {
    missing.push({ path: "hypothesis", message: "hypothesis is required: at least hypothesis.statement" });
  }
  if (
    child(request.get("turnaround_budget"), "budget_max_usd") === undefined &&
    child(request.get("constraints"), "budget_max_usd") === undefined
  ) {
    missing.push({
      path: "turnaround_budget.budget_max_usd",
      message:
        "A budget is required: turnaround_budget.budget_max_usd (or constraints.budget_max_usd), 50 to 100000 USD",
    });
  }
  if (!type) return;
  const present =
    TYPE_SECTIONS[type].some((key) => request.get(key) !== undefined) ||
    (type === "CUSTOM" && child(request.protocol, "custom_protocol") !== undefined);
  const designedByStaff = type === "CUSTOM" && request.protocolType === "protocol_design_requested";
  if (!present && !designedByStaff) {
    missing.push({ path: TYPE_SECTIONS[type][0] as string, message: typeSectionMessage(type) });
  }
}

/** Contact by webhook needs a webhook. */
export function checkWebhookContact(request: RawRequest, findings: Findings): void {
  const preferences = request.get("communication_preferences");
  if (
    child(preferences, "preferred_contact") === "webhook" &&
    child(preferences, "webhook_url") === undefined
  ) {
    findings.missing.push({
      path: "communication_preferences.webhook_url",
      message: "communication_preferences.webhook_url is required when preferred_contact is webhook",
    });
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function typeSectionMessage(type: ExperimentTypeName): string {
  if (type === "CUSTOM")
    return "experiment_type CUSTOM needs a custom protocol: custom_protocol (or protocol.custom_protocol)";
  if (type === "MIC_MBC_ASSAY")
    return "experiment_type MIC_MBC_ASSAY needs its section mic_mbc (or the cloud-lab form mic_mbc_assay)";
  return `experiment_type ${type} needs its section ${TYPE_SECTIONS[type][0]}`;
}
