/**
 * D355: every interpretation the service gives for the intake fixtures travels typed, and the
 * typed form, once over the wire, writes exactly the JSON text sent beside it (what gateways
 * built before read): REST is the same whichever form a gateway reads.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  IntakeInterpretationSchema,
  type InterpretIntakeResponse,
  InterpretIntakeResponseSchema,
} from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL, toRestJson } from "@petri/contracts/rest-json";
import { clientIntakes, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import { interpretIntake } from "../domain/interpret/index.js";
import type { Interpretation } from "../domain/plan.js";
import { PROVIDERS } from "../domain/providers/index.js";
import { interpretationReplySchema } from "../interpret-llm/interpretation-reply.js";
import { interpretationForms } from "./interpretation-message.js";

const named = (prefix: string, fixtures: object) =>
  Object.entries(fixtures).map(([name, intake]): [string, unknown] => [`${prefix} ${name}`, intake]);
const intakes = [
  ...named("valid", validRequests),
  ...named("full", fullRequests),
  ...named("client", clientIntakes),
  ...named("special", specialRequests),
];

/** The message as a gateway receives it: encoded and decoded. */
const overTheWire = (message: InterpretIntakeResponse) =>
  fromBinary(InterpretIntakeResponseSchema, toBinary(InterpretIntakeResponseSchema, message));

/** The interpretation's REST JSON as a gateway writes it from the typed field received. */
function receivedInterpretationText(interpretation: Interpretation): string {
  const sent = create(InterpretIntakeResponseSchema, {
    ...interpretationForms(interpretation),
    interpreter: "rules",
  });
  const received = overTheWire(sent);
  expect(received.interpretationJson).toBe(JSON.stringify(interpretation));
  if (!received.interpretation) return "(unset)";
  return JSON.stringify(toRestJson(IntakeInterpretationSchema, received.interpretation, ABSENT_AS_NULL));
}

const rulesReadings = intakes.flatMap(([name, intake]) =>
  [undefined, ...PROVIDERS].flatMap((provider) => {
    const read = interpretIntake(structuredClone(intake), provider);
    return "problems" in read ? [] : [{ name: `${name} for ${provider?.id ?? "any lab"}`, ...read }];
  }),
);

describe("the interpretation travels typed and writes its JSON text exactly", () => {
  it("for every reading of the fixture intakes by the rules, with and without a provider", () => {
    expect(rulesReadings.length).toBeGreaterThan(intakes.length);
    for (const { name, interpretation } of rulesReadings)
      expect(receivedInterpretationText(interpretation), name).toBe(JSON.stringify(interpretation));
  });

  it("for a language model's reading, checked by the reply schema (its keys in any order)", () => {
    for (const { name, interpretation } of rulesReadings) {
      const { replicates, ...parameters } = interpretation.parameters;
      // A model writes the reply's keys in its own order: replicates first, say.
      const reply = { ...interpretation, parameters: { replicates, ...parameters } };
      const checked = interpretationReplySchema().parse(JSON.parse(JSON.stringify(reply)));
      expect(JSON.stringify(checked), name).toBe(JSON.stringify(interpretation));
      expect(receivedInterpretationText(checked), name).toBe(JSON.stringify(checked));
    }
  });
});
