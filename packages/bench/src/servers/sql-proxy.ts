// A TCP proxy between a Petri host and PostgreSQL that counts the SQL statements going through
// it (see ../sql/frontend-messages.ts). A process of its own, so that neither its CPU nor its
// latency share the load generator's event loop; its CPU is the instrument's, not the target's.
//   PORT          where the Petri host connects (127.0.0.1)
//   UPSTREAM      PostgreSQL's host:port
//   CONTROL_PORT  GET /statements -> {"statements": <count since start>}
import { createServer as createHttpServer } from "node:http";
import { connect, createServer } from "node:net";
import { FrontendMessageCounter } from "../sql/frontend-messages.js";

const [upstreamHost, upstreamPort] = (process.env.UPSTREAM ?? "127.0.0.1:5432").split(":");
let closedConnections = 0;
const open = new Set<FrontendMessageCounter>();

createServer((client) => {
  const counter = new FrontendMessageCounter();
  open.add(counter);
  const server = connect(Number(upstreamPort), upstreamHost!);
  client.on("data", (chunk: Buffer) => counter.push(chunk));
  server.on("data", (chunk: Buffer) => counter.serverWrote(chunk));
  client.pipe(server);
  server.pipe(client);
  const end = () => {
    if (!open.delete(counter)) return;
    closedConnections += counter.statements;
    client.destroy();
    server.destroy();
  };
  client.on("close", end).on("error", end);
  server.on("close", end).on("error", end);
}).listen(Number(process.env.PORT), "127.0.0.1");

createHttpServer((_request, response) => {
  let statements = closedConnections;
  for (const counter of open) statements += counter.statements;
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ statements }));
}).listen(Number(process.env.CONTROL_PORT), "127.0.0.1");
