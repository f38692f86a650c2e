type App = { request: (path: string, init: RequestInit, env: unknown) => Response | Promise<Response> };

/**
 * A request helper for route tests: `call(method, path, body?, key?, headers?)` sends JSON
 * (a string body as is) with the API key `key` (none when null) from one source address.
 */
export function caller(app: App, source: string, defaultKey: () => string) {
  return (
    method: string,
    path: string,
    body?: unknown,
    key: string | null = defaultKey(),
    headers: Record<string, string> = {},
  ) =>
    Promise.resolve(
      app.request(
        path,
        {
          method,
          headers: {
            ...(key !== null && { "x-api-key": key }),
            ...(body !== undefined && { "content-type": "application/json" }),
            ...headers,
          },
          ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
        },
        from(source),
      ),
    );
}
/** Env for app.request() that makes the request come from `address` (as @hono/node-server would). */
export function from(address: string) {
  return { incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv4" } } };
}

export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** The body of a response as loosely typed JSON (tests assert field by field). */
export const bodyOf = async (response: Response): Promise<any> => response.json();
