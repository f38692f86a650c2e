import { createLogger } from "@petri/service-kit";
import { specialRequests } from "@petri/fixtures";
import { describe, expect, it } from "vitest";
import type { Interpretation } from "../domain/plan.js";
import { makeInterpretIntake } from "./interpret-intake.js";

const logger = createLogger({ service: "cloudlabs-test", level: "silent" });

describe("interpret", () => {
  it("answers with the rules when no language model is configured", async () => {
    const answer = await makeInterpretIntake({ logger, timeoutMs: 1_000 })(specialRequests.micCloudLab, "");
    expect(answer.interpreter).toBe("rules");
    expect(answer.interpretation.experiment_type).toBe("MIC_MBC_ASSAY");
  });

  it("answers with the model's reading, given the rules' as reference", async () => {
    const seen: Interpretation[] = [];
    const llm = {
      id: "openai-compatible:m",
      interpret: async (_intake: unknown, rules: Interpretation) => {
        seen.push(rules);
        return { ...rules, confidence: 0.42, notes: ["read by the model"] };
      },
    };
    const answer = await makeInterpretIntake({ llm, logger, timeoutMs: 1_000 })(
      specialRequests.micCloudLab,
      "",
    );
    expect(answer).toMatchObject({
      interpreter: "openai-compatible:m",
      interpretation: { confidence: 0.42 },
    });
    expect(seen[0]?.experiment_type).toBe("MIC_MBC_ASSAY");
  });

  it("falls back to the rules, saying so, when the model fails; never for an unreadable intake", async () => {
    const llm = {
      id: "m",
      interpret: async () => {
        throw new Error("500 three times");
      },
    };
    const answer = await makeInterpretIntake({ llm, logger, timeoutMs: 1_000 })(
      specialRequests.micCloudLab,
      "",
    );
    expect(answer.interpreter).toBe("rules");
    expect(answer.interpretation.notes.at(-1)).toMatch(/language model did not answer/);
    await expect(makeInterpretIntake({ llm, logger, timeoutMs: 1_000 })([], "")).rejects.toThrow(
      /cannot be read/,
    );
    await expect(
      makeInterpretIntake({ llm, logger, timeoutMs: 1_000 })(specialRequests.micCloudLab, "nope"),
    ).rejects.toThrow(/not found/);
  });
});
