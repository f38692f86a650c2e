/**
 * A transport that calls a service in this process with the message objects themselves: the
 * client's and the service's interceptors run as over the wire, the handler gets a Connect
 * handler context (the caller's deadline and cancellation), but nothing is encoded or decoded
 * (decisions.md D357). Streaming calls (an
 * upload, a revocation watch) go to `streams`, a transport that serialises.
 */
import type { DescMethod, DescMethodUnary, DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
  createContextValues,
  createMethodImplSpec,
  createServiceImplSpec,
} from "@connectrpc/connect";
import { createMethodUrl, invokeUnaryImplementation } from "@connectrpc/connect/protocol";

/** The function an interceptor wraps. */
type CallFn = Parameters<Interceptor>[0];
type UnaryImplSpec = Extract<MethodImplSpec, { kind: "unary" }>;

export interface DirectTransportOptions {
  /** Registers the service's handlers, as a HostedService's routes() does. */
  routes(router: ConnectRouter): void;
  /** The service side's chain (authentication, errors, logging), as its server runs it. */
  serverInterceptors: Interceptor[];
  /** The caller's chain (the principal token, the trace). */
  clientInterceptors: Interceptor[];
  /** Carries the streaming calls. */
  streams: Transport;
}

/** The base of the URL interceptors see; nothing listens there. */
const IN_PROCESS_BASE_URL = "http://in-process";
const PROTOCOL_NAME = "in-process";

export function createDirectTransport(options: DirectTransportOptions): Transport {
  const unaryMethods = registeredUnaryMethods(options.routes);
  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: Parameters<Transport["unary"]>[3],
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ): Promise<UnaryResponse<I, O>> {
      const spec = unaryMethods.get(procedureOf(method)) ?? unimplemented(method);
      const url = createMethodUrl(IN_PROCESS_BASE_URL, method);
      // As Connect's transports read it: none, or a positive number of milliseconds.
      const call = new CallSignal(signal, timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined);
      const serve: CallFn = async (req) => {
        const context: HandlerContext = {
          service: method.parent,
          method,
          protocolName: PROTOCOL_NAME,
          requestMethod: "POST",
          url,
          signal: call.signal,
          timeoutMs: call.remainingMs,
          requestHeader: req.header,
          responseHeader: new Headers(),
          responseTrailer: new Headers(),
          // The service's own values: what the caller put in its context stays on its side.
          values: createContextValues(),
        };
        const message = await invokeUnaryImplementation(
          spec,
          context,
          (req as UnaryRequest).message,
          options.serverInterceptors,
        );
        return {
          stream: false,
          service: method.parent,
          method,
          header: context.responseHeader,
          trailer: context.responseTrailer,
          message,
        };
      };
      const chain = options.clientInterceptors.reduceRight((next, interceptor) => interceptor(next), serve);
      try {
        const response = await chain({
          stream: false,
          service: method.parent,
          method,
          requestMethod: "POST",
          url,
          signal: call.signal,
          header: new Headers(header),
          contextValues: contextValues ?? createContextValues(),
          message: create(method.input, input),
        });
        return response as UnaryResponse<I, O>;
      } catch (error) {
        throw call.signal.aborted
          ? ConnectError.from(call.signal.reason, Code.Canceled)
          : ConnectError.from(error);
      } finally {
        call.release();
      }
    },
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      options.streams.stream(method, signal, timeoutMs, header, input, contextValues),
  };
}

/**
 * A call's abort signal: aborted when the caller's is, or at the deadline, with the reason a
 * Connect client gives. One controller per call, and nothing aborted when the call ends well:
 * an abort without a reason builds a DOMException, which Connect's transports pay on every
 * call (D357).
 */
class CallSignal {
  private readonly controller = new AbortController();
  private readonly deadline: number | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly caller: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ) {
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener("abort", this.onCallerAbort);
    if (timeoutMs !== undefined) {
      this.deadline = Date.now() + timeoutMs;
      this.timer = setTimeout(this.onDeadline, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  readonly remainingMs = (): number | undefined =>
    this.deadline === undefined ? undefined : this.deadline - Date.now();

  release(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
  }

  private readonly onCallerAbort = () => {
    this.controller.abort(ConnectError.from(this.caller?.reason, Code.Canceled));
  };

  private readonly onDeadline = () => {
    this.controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  };
}

/** The unary handlers `routes` registers, by procedure ("package.Service/Method"). */
function registeredUnaryMethods(routes: (router: ConnectRouter) => void): Map<string, UnaryImplSpec> {
  const methods = new Map<string, UnaryImplSpec>();
  const add = (spec: MethodImplSpec) => {
    if (spec.kind === "unary") methods.set(procedureOf(spec.method), spec);
  };
  const router: ConnectRouter = {
    handlers: [],
    service(service, implementation) {
      const spec = createServiceImplSpec(service, implementation);
      for (const method of Object.values(spec.methods)) add(method);
      return router;
    },
    rpc(method, implementation) {
      add(createMethodImplSpec(method, implementation));
      return router;
    },
  };
  routes(router);
  return methods;
}

function procedureOf(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

/** A method the service does not register answers as its server would: Unimplemented. */
function unimplemented(method: DescMethodUnary): UnaryImplSpec {
  return createServiceImplSpec(method.parent, {}).methods[method.localName] as UnaryImplSpec;
}
