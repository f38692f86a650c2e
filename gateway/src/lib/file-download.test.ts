import { describe, expect, it } from "vitest";
import { contentDisposition, reprDigest, safeContentType, sha256Hex } from "./file-download.js";

describe("contentDisposition", () => {
  it.each([
    ["plate1.csv", `attachment; filename="plate1.csv"; filename*=UTF-8''plate1.csv`],
    [
      "my data (v2).csv",
      `attachment; filename="my data (v2).csv"; filename*=UTF-8''my%20data%20%28v2%29.csv`,
    ],
    [
      "Zellkultur_µM.xlsx",
      `attachment; filename="Zellkultur__M.xlsx"; filename*=UTF-8''Zellkultur_%C2%B5M.xlsx`,
    ],
    ["实验.pdf", `attachment; filename="__.pdf"; filename*=UTF-8''%E5%AE%9E%E9%AA%8C.pdf`],
    ['a"b%d.txt', `attachment; filename="a_b_d.txt"; filename*=UTF-8''a%22b%25d.txt`],
  ])("%s", (name, expected) => {
    expect(contentDisposition(name)).toBe(expected);
  });

  it("never lets a name break out of the header: no quotes, line breaks or paths", () => {
    const header = contentDisposition('../../etc/passwd"\r\nSet-Cookie: x=1');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(
      `attachment; filename="passwd_Set-Cookie: x=1"; filename*=UTF-8''passwd%22Set-Cookie%3A%20x%3D1`,
    );
    expect(contentDisposition("dir\\inner.txt")).toContain('filename="inner.txt"');
  });

  it("names a file with no usable name 'download'", () => {
    for (const name of ["", "   ", "/", "\u0000\u0001"]) {
      expect(contentDisposition(name)).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    }
  });
});

describe("safeContentType", () => {
  it.each([
    ["text/csv", "text/csv"],
    ["text/csv; charset=utf-8", "text/csv; charset=utf-8"],
    ["image/png", "image/png"],
    ['application/vnd.ms-excel; name="x y"', 'application/vnd.ms-excel; name="x y"'],
    ["", "application/octet-stream"],
    ["text/html\r\nX-Evil: 1", "application/octet-stream"],
    ["not a type", "application/octet-stream"],
    ["text/", "application/octet-stream"],
  ])("%j -> %j", (stored, served) => {
    expect(safeContentType(stored)).toBe(served);
  });
});

describe("digests", () => {
  it("hex SHA-256 and its RFC 9530 Repr-Digest", () => {
    const hex = sha256Hex(new TextEncoder().encode("abc"));
    expect(hex).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(reprDigest(hex)).toBe("sha-256=:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=:");
  });
});
