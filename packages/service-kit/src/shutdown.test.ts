import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../test/log-capture.js";
import { ManualClock, eventually } from "../test/manual-clock.js";
import { createShutdown, installSignalHandlers, type ShutdownStep } from "./shutdown.js";

function recorder() {
  const events: string[] = [];
  const step = (name: string, behaviour: () => Promise<void> | void = () => undefined): ShutdownStep => ({
    name,
    async run() {
      events.push(`start ${name}`);
      await behaviour();
      events.push(`end ${name}`);
    },
  });
  return { events, step };
}

describe("createShutdown", () => {
  it("runs the steps one after another, in the given order, logging each", async () => {
    const { events, step } = recorder();
    const { logger, lines } = captureLogs();
    const exits: number[] = [];
    const names = [
      "readiness false",
      "stop consumers",
      "stop relay",
      "close server",
      "drain bus",
      "destroy db",
    ];
    const shutdown = createShutdown({
      logger,
      timeoutMs: 25_000,
      exit: (code) => exits.push(code),
      clock: new ManualClock(),
      steps: names.map((name) => step(name, () => new Promise((r) => setTimeout(r, 1)))),
    });
    const result = await shutdown.run("SIGTERM");
    expect(events).toEqual(names.flatMap((n) => [`start ${n}`, `end ${n}`]));
    expect(result).toEqual({ reason: "SIGTERM", failedSteps: [], timedOut: false });
    expect(lines.filter((l) => l.msg === "shutdown step done").map((l) => l.step)).toEqual(names);
    expect(lines.at(-1)).toMatchObject({ msg: "shutdown complete", reason: "SIGTERM" });
    expect(exits).toEqual([]); // exiting is the signal handler's job
  });

  it("continues past a failing step and reports it", async () => {
    const { events, step } = recorder();
    const { logger, lines } = captureLogs();
    const shutdown = createShutdown({
      logger,
      timeoutMs: 1_000,
      exit: () => undefined,
      clock: new ManualClock(),
      steps: [
        step("a"),
        step("b", () => {
          throw new Error("relay stuck");
        }),
        step("c"),
      ],
    });
    const result = await shutdown.run("test");
    expect(events).toEqual(["start a", "end a", "start b", "start c", "end c"]);
    expect(result.failedSteps).toEqual(["b"]);
    expect(lines.find((l) => l.msg === "shutdown step failed; continuing")).toMatchObject({
      step: "b",
      err: { message: "relay stuck" },
    });
  });

  it("runs once even if called twice", async () => {
    const { events, step } = recorder();
    const shutdown = createShutdown({
      logger: captureLogs().logger,
      timeoutMs: 1_000,
      exit: () => undefined,
      clock: new ManualClock(),
      steps: [step("only")],
    });
    expect(shutdown.started).toBe(false);
    const first = shutdown.run("SIGTERM");
    const second = shutdown.run("SIGINT");
    expect(second).toBe(first);
    expect(shutdown.started).toBe(true);
    await first;
    await shutdown.run("again");
    expect(events).toEqual(["start only", "end only"]);
  });

  it("force-exits with 1 when the steps exceed timeoutMs, naming the step it was stuck in", async () => {
    const clock = new ManualClock();
    const { events, step } = recorder();
    const { logger, lines } = captureLogs();
    const exits: number[] = [];
    const shutdown = createShutdown({
      logger,
      timeoutMs: 25_000,
      exit: (code) => exits.push(code),
      clock,
      steps: [
        step("close server"),
        step("drain bus", () => new Promise(() => undefined)),
        step("destroy db"),
      ],
    });
    void shutdown.run("SIGTERM");
    await eventually(() => events.includes("start drain bus"));
    clock.advance(24_999);
    await new Promise((r) => setTimeout(r, 5));
    expect(exits).toEqual([]);
    clock.advance(1);
    await eventually(() => exits.length === 1);
    expect(exits).toEqual([1]);
    expect(lines.find((l) => l.msg === "shutdown timed out; exiting")).toMatchObject({ step: "drain bus" });
  });

  it("cancels the deadline once the steps are done", async () => {
    const clock = new ManualClock();
    const exits: number[] = [];
    const shutdown = createShutdown({
      logger: captureLogs().logger,
      timeoutMs: 1_000,
      exit: (code) => exits.push(code),
      clock,
      steps: [{ name: "quick", run: async () => undefined }],
    });
    await shutdown.run("SIGTERM");
    expect(clock.pendingSleeps).toBe(0);
    clock.advance(5_000);
    await new Promise((r) => setTimeout(r, 5));
    expect(exits).toEqual([]);
  });
});

describe("installSignalHandlers", () => {
  function setup(steps: ShutdownStep[]) {
    const exits: number[] = [];
    const signals = new EventEmitter();
    const shutdown = createShutdown({
      logger: captureLogs().logger,
      timeoutMs: 1_000,
      exit: (code) => exits.push(code),
      clock: new ManualClock(),
      steps,
    });
    const uninstall = installSignalHandlers(shutdown, { source: signals });
    return { exits, signals, uninstall };
  }

  it("SIGTERM runs the shutdown then exits 0", async () => {
    const { events, step } = recorder();
    const { exits, signals } = setup([step("a")]);
    signals.emit("SIGTERM", "SIGTERM");
    await eventually(() => exits.length === 1);
    expect(events).toEqual(["start a", "end a"]);
    expect(exits).toEqual([0]);
  });

  it("exits 1 when a step failed", async () => {
    const { exits, signals } = setup([
      {
        name: "bad",
        run: () => {
          throw new Error("x");
        },
      },
    ]);
    signals.emit("SIGINT", "SIGINT");
    await eventually(() => exits.length === 1);
    expect(exits).toEqual([1]);
  });

  it("a second signal during shutdown exits at once with 1", async () => {
    let release!: () => void;
    const { exits, signals } = setup([{ name: "slow", run: () => new Promise<void>((r) => (release = r)) }]);
    signals.emit("SIGTERM", "SIGTERM");
    await eventually(() => release !== undefined);
    signals.emit("SIGINT", "SIGINT");
    expect(exits).toEqual([1]);
    release();
  });

  it("returns an uninstaller", () => {
    const { signals, uninstall } = setup([]);
    expect(signals.listenerCount("SIGTERM")).toBe(1);
    uninstall();
    expect(signals.listenerCount("SIGTERM")).toBe(0);
    expect(signals.listenerCount("SIGINT")).toBe(0);
  });
});
