import { create } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "@petri/contracts/common";
import { describe, expect, it } from "vitest";
import { unsafeTextInMessage } from "./message-text.js";

describe("unsafeTextInMessage", () => {
  it("finds NUL and lone surrogates in fields, map keys and values and nested list items, by proto name", () => {
    const message = create(ErrorDetailSchema, {
      reason: "ok",
      detailsJson: "x\u0000",
      metadata: { fine: "\ud800", ["k\u0000"]: "v" },
      fieldViolations: [{ field: "a" }, { field: "b", message: "\udfff tail" }],
    });
    const fields = unsafeTextInMessage(ErrorDetailSchema, message).map((e) => e.field);
    expect(fields.sort()).toEqual([
      "details_json",
      "field_violations.1.message",
      'metadata."k\\u0000"',
      "metadata.fine",
    ]);
  });

  it("finds nothing in a clean message", () => {
    const message = create(ErrorDetailSchema, {
      reason: "r",
      metadata: { a: "b" },
      fieldViolations: [{ field: "x" }],
    });
    expect(unsafeTextInMessage(ErrorDetailSchema, message)).toEqual([]);
  });
});
