/**
 * The protocol choice: protocol.type must say which of template, custom protocol or design
 * brief is meant, each needs its own field, the others' fields do not apply; and a custom
 * protocol needs a materials list.
 */
import { child, ownValue } from "../paths.js";
import type { Findings } from "./findings.js";
import type { RawRequest } from "./raw-request.js";

export function checkProtocolChoice(request: RawRequest, findings: Findings): void {
  const { protocol, protocolType, customProtocolSent } = request;
  if (!protocol) return;
  const has = (key: string) => ownValue(protocol, key) !== undefined;
  const { missing, errors } = findings;
  if (
    request.protocolTypeSent === undefined &&
    ["template_id", "template_parameters", "custom_protocol", "protocol_design_brief"].some(has)
  ) {
    missing.push({
      path: "protocol.type",
      message:
        "protocol.type is required with a template, a custom protocol or a design brief: standard_template, custom or protocol_design_requested",
    });
  }
  if (protocolType === "standard_template" && !has("template_id")) {
    missing.push({
      path: "protocol.template_id",
      message: "protocol.template_id is required when protocol.type is standard_template",
    });
  }
  if (protocolType === "protocol_design_requested" && !has("protocol_design_brief")) {
    missing.push({
      path: "protocol.protocol_design_brief",
      message:
        "protocol.protocol_design_brief is required when protocol.type is protocol_design_requested: describe the goal",
    });
  }
  if (protocolType === "custom" && !customProtocolSent) {
    missing.push({
      path: "protocol.custom_protocol",
      message: "protocol.custom_protocol (or custom_protocol) is required when protocol.type is custom",
    });
  }
  if (protocolType === undefined) return;
  for (const key of ["template_id", "template_parameters"]) {
    if (has(key) && protocolType !== "standard_template") {
      errors.push({
        path: `protocol.${key}`,
        code: "invalid_value",
        message: `protocol.${key} applies only when protocol.type is standard_template (it is ${protocolType})`,
      });
    }
  }
  if (has("protocol_design_brief") && protocolType !== "protocol_design_requested") {
    errors.push({
      path: "protocol.protocol_design_brief",
      code: "invalid_value",
      message: `protocol.protocol_design_brief applies only when protocol.type is protocol_design_requested (it is ${protocolType})`,
    });
  }
  if (protocolType === "standard_template" && customProtocolSent) {
    errors.push({
      path: has("custom_protocol") ? "protocol.custom_protocol" : "custom_protocol",
      code: "invalid_value",
      message: "A custom protocol cannot be combined with protocol.type standard_template",
    });
  }
}

/** A custom protocol needs a materials list (the rest of completeness is in the schema). */
export function checkCustomProtocolMaterials(request: RawRequest, findings: Findings): void {
  if (!request.customProtocolSent) return;
  const materials = request.get("materials_provided") ?? child(request.protocol, "materials");
  if (!Array.isArray(materials) || materials.length === 0) {
    findings.missing.push({
      path: "materials_provided",
      message: "A custom protocol needs a materials list: materials_provided (or protocol.materials)",
    });
  }
}
