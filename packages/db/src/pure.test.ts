import { describe, expect, it } from "vitest";
import { isRetryableTransactionError, isUniqueViolation, sqlState } from "./errors.js";
import { jsonb } from "./json.js";
import { MIGRATION_NAME } from "./migrate.js";
import { UnsafeIntegerError, parseInt8, pgTypeParsers } from "./type-parsers.js";

describe("parseInt8", () => {
  it("parses safe integers and refuses anything that would lose precision", () => {
    expect(parseInt8("0")).toBe(0);
    expect(parseInt8("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8("-9007199254740991")).toBe(Number.MIN_SAFE_INTEGER);
    expect(() => parseInt8("9007199254740992")).toThrow(UnsafeIntegerError);
    expect(() => parseInt8("-9007199254740992")).toThrow(/MAX_SAFE_INTEGER/);
    expect(() => parseInt8("9223372036854775807")).toThrow(UnsafeIntegerError);
  });
});

describe("pg type parsers (per pool)", () => {
  const parse = (oid: number, text: string) =>
    (pgTypeParsers.getTypeParser(oid as never, "text") as (t: string) => unknown)(text);

  it("override int8, date, interval and their arrays, and keep pg's defaults otherwise", () => {
    expect(parse(20, "42")).toBe(42);
    expect(parse(1016, "{1,NULL,{2,3}}")).toEqual([1, null, [2, 3]]);
    expect(() => parse(1016, "{9223372036854775807}")).toThrow(UnsafeIntegerError);
    expect(parse(1082, "2024-02-29")).toBe("2024-02-29");
    expect(parse(1182, "{2024-02-29,NULL}")).toEqual(["2024-02-29", null]);
    expect(parse(1231, "{1.10,NULL}")).toEqual(["1.10", null]);
    expect(parse(1186, "1 day 02:00:00")).toBe("1 day 02:00:00");
    expect(parse(1700, "1.10")).toBe("1.10");
    expect(parse(23, "7")).toBe(7);
    expect(parse(3802, '{"a":[1]}')).toEqual({ a: [1] });
  });
});

describe("error helpers", () => {
  it("recognise SQLSTATEs from either engine's error objects", () => {
    const unique = Object.assign(new Error("duplicate key"), { code: "23505", constraint: "outbox_id_key" });
    expect(sqlState(unique)).toBe("23505");
    expect(isUniqueViolation(unique)).toBe(true);
    expect(isUniqueViolation(unique, "outbox_id_key")).toBe(true);
    expect(isUniqueViolation(unique, "other")).toBe(false);
    expect(isUniqueViolation(Object.assign(new Error(), { code: "ECONNREFUSED" }))).toBe(false);
    expect(isUniqueViolation("23505")).toBe(false);
    expect(isRetryableTransactionError({ code: "40001" })).toBe(true);
    expect(isRetryableTransactionError({ code: "40P01" })).toBe(true);
    expect(isRetryableTransactionError({ code: "23505" })).toBe(false);
  });
});

describe("conventions", () => {
  it("migration names are YYYY_MM_DD_HHMM_<what>", () => {
    expect(MIGRATION_NAME.test("2026_11_21_1000_create_accounts")).toBe(true);
    for (const bad of [
      "2026_11_21_create",
      "2026_11_21_2400_x",
      "2026_11_21_1000_",
      "2026_11_21_1000_Create",
      "2026-11-21_1000_x",
    ]) {
      expect(MIGRATION_NAME.test(bad), bad).toBe(false);
    }
  });

  it("jsonb() produces JSON text, arrays included", () => {
    expect(jsonb([1, { a: null }])).toBe('[1,{"a":null}]');
  });
});
