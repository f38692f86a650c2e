/**
 * Every string field of the contracts that carries a document as JSON text (named `*_json`)
 * must say what defines the document (issue 17: no model hidden in a JSON string): a
 * `(petri.common.v1.json_message)` naming its message (decisions.md D351), or `deprecated`
 * beside the typed field that replaced it (D336, D342). The rest are listed below, each with
 * why it is text: a new JSON-text field fails this test until it is typed, declared or listed,
 * and a listed field that becomes typed must leave the list.
 */
import {
  type DescField,
  type DescFile,
  type DescMessage,
  ScalarType,
  createRegistry,
  getOption,
} from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { describe, expect, it } from "vitest";
import * as cloudlabs from "./cloudlabs.js";
import * as common from "./common.js";
import { json_message } from "./common.js";
import * as engine from "./engine.js";
import * as experiments from "./experiments.js";
import * as hypotheses from "./hypotheses.js";
import * as identity from "./identity.js";
import * as marketplace from "./marketplace.js";
import * as notifications from "./notifications.js";

/**
 * What a client sends (or a service builds for a client's call), relayed as sent and validated
 * by the service that owns it, which reports every problem with its path (D343): text by design.
 */
const CLIENT_BODIES = [
  "petri.cloudlabs.v1.InterpretIntakeRequest.intake_json",
  "petri.cloudlabs.v1.TranslateIntakeRequest.intake_json",
  "petri.cloudlabs.v1.ValidateIntakeRequest.intake_json",
  "petri.experiments.v1.CreateExperimentFromHypothesisRequest.additional_fields_json",
  "petri.experiments.v1.CreateExperimentRequest.request_json",
  "petri.experiments.v1.EstimateExperimentRequest.request_json",
  "petri.experiments.v1.ProposeProtocolRequest.protocol_json",
  "petri.experiments.v1.SubmitResultsRequest.results_json",
  "petri.experiments.v1.UpdateExperimentRequest.patch_json",
  "petri.experiments.v1.UploadResultsRequest.fields_json",
  "petri.experiments.v1.ValidateExperimentRequest.request_json",
  "petri.hypotheses.v1.CreateHypothesisRequest.engine_response_json",
  "petri.hypotheses.v1.CreateHypothesisRequest.intake_draft_json",
  "petri.hypotheses.v1.PrepareExperimentFromHypothesisRequest.additional_fields_json",
  "petri.hypotheses.v1.PrepareExperimentFromHypothesisResponse.request_json",
  "petri.marketplace.v1.SubmitOperatorProfileRequest.profile_json",
  "petri.marketplace.v1.VerifyOperatorRequest.verification_json",
];

/**
 * Documents whose shape is free by nature: an error's details, a JSON Web Key, a provider's
 * protocol in its own format (sll-json's keys are Emerald option names, an Autoprotocol
 * document's instructions a union of 14 shapes), a lab's own results report, a hypothesis's
 * intake draft (a client's partial draft, any JSON object up to 64 KiB) and engine response
 * (whatever engine response the client saved), and a protocol staff propose for a design request
 * (kept as sent, checked and normalised as a request only when accepted, D359). A Struct would say no more than "a JSON object"
 * and encodes a 40 KB protocol in 17-26 ms against 0.3-1.3 ms for the text (decisions.md D355),
 * a hypothesis's documents at about a hundred times the text's CPU (D356).
 */
const FREE_FORM = [
  "petri.cloudlabs.v1.Submission.results_json",
  "petri.cloudlabs.v1.Submission.translated_protocol_json",
  "petri.cloudlabs.v1.Translation.protocol_json",
  "petri.common.v1.ErrorDetail.details_json",
  "petri.experiments.v1.ProtocolProposal.protocol_json",
  "petri.hypotheses.v1.Hypothesis.engine_response_json",
  "petri.hypotheses.v1.Hypothesis.intake_draft_json",
  "petri.identity.v1.SigningKey.public_jwk_json",
];

const files: DescFile[] = [
  cloudlabs,
  common,
  engine,
  experiments,
  hypotheses,
  identity,
  marketplace,
  notifications,
]
  .flatMap((barrel) => Object.entries(barrel))
  .filter(([name]) => name.startsWith("file_petri_"))
  .map(([, file]) => file as DescFile);

function messagesOf(parent: DescFile | DescMessage): DescMessage[] {
  return [...nestedTypes(parent)].filter((type): type is DescMessage => type.kind === "message");
}

const jsonTextFields: DescField[] = files
  .flatMap(messagesOf)
  .flatMap((message) => message.fields)
  .filter((field) => field.name.endsWith("_json"));

const nameOf = (field: DescField) => `${field.parent.typeName}.${field.name}`;
const declaredMessage = (field: DescField) => getOption(field, json_message);

describe("JSON-text fields of the contracts", () => {
  it("finds the fields it judges (every file of the contracts read)", () => {
    expect(files.length).toBeGreaterThan(20);
    expect(jsonTextFields.map(nameOf)).toContain("petri.experiments.v1.Experiment.request_json");
    for (const field of jsonTextFields) {
      const text =
        field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar");
      expect(text && field.scalar === ScalarType.STRING, nameOf(field)).toBe(true);
    }
  });

  it("each names its message, is deprecated beside a typed field, or is listed with why it is text", () => {
    const undeclared = jsonTextFields.filter((field) => declaredMessage(field) === "" && !field.deprecated);
    expect(undeclared.map(nameOf).sort()).toEqual([...CLIENT_BODIES, ...FREE_FORM].sort());
  });

  it("a declared message exists in the contracts", () => {
    const registry = createRegistry(...files);
    const declared = jsonTextFields.filter((field) => declaredMessage(field) !== "");
    expect(declared.map(nameOf)).toContain("petri.experiments.v1.Experiment.request_json");
    for (const field of declared)
      expect(
        registry.getMessage(declaredMessage(field)),
        `${nameOf(field)}: ${declaredMessage(field)}`,
      ).toBeDefined();
  });

  it("a deprecated one has a typed field beside it", () => {
    for (const field of jsonTextFields.filter((candidate) => candidate.deprecated)) {
      const typed = field.parent.fields.filter(
        (other) =>
          !other.deprecated &&
          (other.fieldKind === "message" || (other.fieldKind === "list" && other.listKind === "message")),
      );
      expect(typed.length, `${nameOf(field)} has no typed field beside it`).toBeGreaterThan(0);
    }
  });
});
