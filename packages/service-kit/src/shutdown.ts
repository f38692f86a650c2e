/**
 * Graceful shutdown: one ordered list of steps, run once, each logged, a failing step never
 * blocking the ones after it, and a hard deadline so the process exits on its own before
 * Kubernetes' SIGKILL (terminationGracePeriodSeconds).
 *
 * Services list the steps in docs/architecture.md's order:
 *   readiness false -> stop consumers -> stop relay -> close server -> drain bus -> destroy db
 */
import { systemClock, type Clock } from "./clock.js";
import type { Logger } from "./logger.js";

export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
}

export interface ShutdownOptions {
  logger: Logger;
  /** Total budget for all steps; past it the process exits with code 1. */
  timeoutMs: number;
  steps: ShutdownStep[];
  /** process.exit by default; tests inject a recorder. */
  exit?: (code: number) => void;
  /** Times the deadline; tests inject a fake clock. */
  clock?: Clock;
}

export interface ShutdownResult {
  reason: string;
  /** Names of the steps that threw (each was logged). */
  failedSteps: string[];
  timedOut: boolean;
}

export interface Shutdown {
  /** Runs the steps in order. A second call returns the first call's promise. */
  run(reason: string): Promise<ShutdownResult>;
  /** True once run() was called. */
  readonly started: boolean;
  /** Exits the process now with `code` (the injected exit). */
  exit(code: number): void;
}

export function createShutdown(options: ShutdownOptions): Shutdown {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<ShutdownResult> | undefined;

  async function runSteps(reason: string): Promise<ShutdownResult> {
    const result: ShutdownResult = { reason, failedSteps: [], timedOut: false };
    let current = "";
    const finished = new AbortController();
    // The deadline runs beside the steps: a hung step cannot hold the process past it.
    void clock.sleep(options.timeoutMs, finished.signal).then(() => {
      if (finished.signal.aborted) return;
      result.timedOut = true;
      logger.error({ reason, step: current, timeout_ms: options.timeoutMs }, "shutdown timed out; exiting");
      exit(1);
    });
    logger.info({ reason, steps: options.steps.map((s) => s.name) }, "shutting down");
    try {
      for (const step of options.steps) {
        if (result.timedOut) break;
        current = step.name;
        const started = clock.now().getTime();
        try {
          await step.run();
          logger.info({ step: step.name, ms: clock.now().getTime() - started }, "shutdown step done");
        } catch (error) {
          result.failedSteps.push(step.name);
          logger.error({ err: error, step: step.name }, "shutdown step failed; continuing");
        }
      }
    } finally {
      finished.abort();
    }
    if (!result.timedOut) logger.info({ reason, failed_steps: result.failedSteps }, "shutdown complete");
    return result;
  }

  return {
    run(reason) {
      running ??= runSteps(reason);
      return running;
    },
    get started() {
      return running !== undefined;
    },
    exit,
  };
}

export interface SignalHandlerOptions {
  signals?: NodeJS.Signals[];
  /** Where signals come from; `process` by default (tests pass an EventEmitter). */
  source?: Pick<NodeJS.EventEmitter, "on" | "removeListener">;
  logger?: Logger;
}

/**
 * SIGTERM/SIGINT run the shutdown, then exit (0, or 1 if a step failed). A second signal
 * while it runs exits at once with 1, for the operator who presses Ctrl-C twice.
 * Returns a function that removes the handlers.
 */
export function installSignalHandlers(shutdown: Shutdown, options: SignalHandlerOptions = {}): () => void {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  const source = options.source ?? process;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown.started) {
      options.logger?.warn({ signal }, "second signal during shutdown; exiting now");
      shutdown.exit(1);
      return;
    }
    void shutdown.run(signal).then((result) => shutdown.exit(result.failedSteps.length > 0 ? 1 : 0));
  };
  for (const signal of signals) source.on(signal, onSignal);
  return () => {
    for (const signal of signals) source.removeListener(signal, onSignal);
  };
}
