import { InvalidStateError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_STATUSES } from "@petri/contracts/vocabulary";
import { RESULTS_READABLE_FROM, assertResultsReadable } from "./results-access.js";

describe("results visibility by status", () => {
  it("shows results from pending_approval on, and nothing before", () => {
    for (const status of EXPERIMENT_STATUSES) {
      if ((RESULTS_READABLE_FROM as readonly string[]).includes(status))
        expect(() => assertResultsReadable(status)).not.toThrow();
      else {
        try {
          assertResultsReadable(status);
          throw new Error("expected a refusal");
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidStateError);
          expect((error as InvalidStateError).details).toEqual({
            status,
            allowed_from: ["pending_approval", "completed", "disputed", "resolved"],
          });
        }
      }
    }
  });
});
