import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { parsePage } from "./pagination.js";

describe("parsePage", () => {
  it("defaults an unset limit to 20 and accepts 1..100 with offset >= 0", () => {
    expect(parsePage({ limit: 0, offset: 0 })).toEqual({ limit: 20, offset: 0 });
    expect(parsePage({ limit: 1, offset: 5 })).toEqual({ limit: 1, offset: 5 });
    expect(parsePage({ limit: 100, offset: 0 })).toEqual({ limit: 100, offset: 0 });
  });

  it("rejects out-of-range values with field errors instead of clamping", () => {
    const fields = (limit: number, offset: number) => {
      try {
        parsePage({ limit, offset });
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).fieldErrors.map((e) => e.field);
      }
    };
    expect(fields(101, 0)).toEqual(["limit"]);
    expect(fields(-1, 0)).toEqual(["limit"]);
    expect(fields(10, -1)).toEqual(["offset"]);
    expect(fields(500, -3)).toEqual(["limit", "offset"]);
  });
});
