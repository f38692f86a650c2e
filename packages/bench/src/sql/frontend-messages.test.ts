import { describe, expect, it } from "vitest";
import { FrontendMessageCounter } from "./frontend-messages.js";

const untyped = (code: number, rest = Buffer.alloc(0)) => {
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + rest.length, 0);
  head.writeInt32BE(code, 4);
  return Buffer.concat([head, rest]);
};
const typed = (type: string, body: string) => {
  const payload = Buffer.from(body);
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(4 + payload.length, 1);
  return Buffer.concat([head, payload]);
};

describe("FrontendMessageCounter", () => {
  const startup = untyped(196608, Buffer.from("user\0bench\0\0"));
  const session = Buffer.concat([
    startup,
    typed("p", "password\0"),
    typed("Q", "select 1\0"),
    typed("P", "\0select $1\0\0\0"),
    typed("B", "\0\0\0\0\0\0\0\0"),
    typed("E", "\0\0\0\0\0"),
    typed("S", ""),
    typed("Q", "begin; select 2; commit\0"),
    typed("X", ""),
  ]);

  it("counts Query and Execute messages after the startup packet", () => {
    const counter = new FrontendMessageCounter();
    counter.push(session);
    expect(counter.statements).toBe(3);
  });

  it("follows messages split across chunks at any byte", () => {
    for (let size = 1; size <= 7; size += 1) {
      const counter = new FrontendMessageCounter();
      for (let i = 0; i < session.length; i += size) counter.push(session.subarray(i, i + size));
      expect(counter.statements, `chunks of ${size}`).toBe(3);
    }
  });

  it("reads the startup packet that follows a refused SSLRequest", () => {
    const counter = new FrontendMessageCounter();
    counter.push(untyped(80877103));
    counter.serverWrote(Buffer.from("N"));
    counter.push(session);
    expect(counter.statements).toBe(3);
  });

  it("stops counting once the connection is encrypted", () => {
    const counter = new FrontendMessageCounter();
    counter.push(untyped(80877103));
    counter.serverWrote(Buffer.from("S"));
    counter.push(typed("Q", "select 1\0"));
    expect(counter.statements).toBe(0);
  });
});
