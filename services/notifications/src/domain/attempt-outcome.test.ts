import { describe, expect, it } from "vitest";
import { outcomeOfStatus } from "./attempt-outcome.js";

describe("outcomeOfStatus", () => {
  it("counts every 2xx as a success and nothing else", () => {
    for (const code of [200, 201, 202, 204, 299])
      expect(outcomeOfStatus(code)).toEqual({ success: true, responseCode: code });
    for (const code of [100, 199, 400, 404, 410, 429, 500, 503])
      expect(outcomeOfStatus(code)).toEqual({ success: false, responseCode: code, error: "http_status" });
  });

  it("fails redirects instead of following them", () => {
    for (const code of [301, 302, 307, 308])
      expect(outcomeOfStatus(code)).toEqual({
        success: false,
        responseCode: code,
        error: "redirect_not_followed",
      });
  });
});
