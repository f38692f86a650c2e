/**
 * A transport that calls a service in this process with the message objects themselves: the
 * client's and the service's interceptors run as over the wire, the handler gets a Connect
 * handler context, but nothing is encoded or decoded (decisions.md D357). Streaming calls (an
 * upload, a revocation watch) go to `streams`, a transport that serialises.
 */
import type { DescMethod, DescMethodUnary, DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import {
  type ConnectRouter,
  type ContextValues,
  type Interceptor,
  type MethodImplSpec,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  createServiceImplSpec,
} from "@connectrpc/connect";
import { createMethodUrl, invokeUnaryImplementation, runUnaryCall } from "@connectrpc/connect/protocol";

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
      const spec = unaryMethods.get(procedureOf(method));
      const url = createMethodUrl(IN_PROCESS_BASE_URL, method);
      return runUnaryCall<I, O>({
        interceptors: options.clientInterceptors,
        signal,
        timeoutMs,
        req: {
          stream: false,
          service: method.parent,
          method,
          requestMethod: "POST",
          url,
          header: new Headers(header),
          contextValues: contextValues ?? createContextValues(),
          message: input,
        },
        next: async (req: UnaryRequest<I, O>): Promise<UnaryResponse<I, O>> => {
          const context = createHandlerContext({
            service: method.parent,
            method,
            protocolName: PROTOCOL_NAME,
            requestMethod: "POST",
            url,
            timeoutMs,
            requestSignal: req.signal,
            requestHeader: req.header,
            // The service's own values: what the caller put in its context stays on its side.
            contextValues: createContextValues(),
          });
          try {
            const message = await invokeUnaryImplementation(
              spec ?? unimplemented(method),
              context,
              req.message,
              options.serverInterceptors,
            );
            return {
              stream: false,
              service: method.parent,
              method,
              header: context.responseHeader,
              trailer: context.responseTrailer,
              message: message as UnaryResponse<I, O>["message"],
            };
          } finally {
            context.abort();
          }
        },
      });
    },
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      options.streams.stream(method, signal, timeoutMs, header, input, contextValues),
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
