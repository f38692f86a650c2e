import { describe, expect, it } from "vitest";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import { buildPrompt } from "./prompt.js";
import { FIXTURE_SOURCE, writerInput } from "../../../test/support/writer-input.js";

describe("buildPrompt", () => {
  it("fences the query and context as data and states the citation rule", () => {
    const { system, user } = buildPrompt(writerInput({ context: "Fixture context." }), EXPERIMENT_TYPES);
    expect(system).toContain("JSON");
    expect(system).toContain("refer only to the numbered sources");
    expect(system).toContain("Never write a DOI or a URL");
    expect(user).toContain(
      "<query>\nDoes synthetic test compound PT-0001 inhibit the placeholder organism?\n</query>",
    );
    expect(user).toContain("<context>\nFixture context.\n</context>");
    expect(user).toContain("compounds: PT-0001");
    expect(user).not.toContain("cell lines");
    expect(user).toContain("Sources: none. Cite nothing.");
  });

  it("numbers the sources by title without their DOIs", () => {
    const { user } = buildPrompt(writerInput({ sources: [FIXTURE_SOURCE] }), EXPERIMENT_TYPES);
    expect(user).toContain(`[1] ${FIXTURE_SOURCE.title} (Petri Test Fixtures, 2001)`);
    expect(user).not.toContain(FIXTURE_SOURCE.doi);
  });

  it("leaves out the context block when there is no context", () => {
    const { user } = buildPrompt(writerInput(), EXPERIMENT_TYPES);
    expect(user).not.toContain("<context>");
  });
});
