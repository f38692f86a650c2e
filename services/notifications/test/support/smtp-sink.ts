/**
 * A minimal SMTP server on 127.0.0.1 (RFC 5321's commands, no TLS, no authentication), so
 * the SMTP adapter is tested through nodemailer and a real socket. It records each message.
 */
import { type AddressInfo, type Server, type Socket, createServer } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body), dot-unstuffed. */
  data: string;
}

export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const sink = new SmtpSink(server, (server.address() as AddressInfo).port);
    server.on("connection", (socket) => sink.converse(socket));
    return sink;
  }

  private converse(socket: Socket): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let envelope: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 sink.test ESMTP");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          envelope.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          this.messages.push(envelope);
          envelope = { from: "", to: [], data: "" };
          reply("250 2.0.0 queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const command = line.slice(0, 4).toUpperCase();
        switch (command) {
          case "EHLO":
          case "HELO":
            reply("250-sink.test\r\n250 8BITMIME");
            break;
          case "MAIL":
            envelope.from = line.slice(10).trim();
            reply("250 2.1.0 ok");
            break;
          case "RCPT":
            envelope.to.push(line.slice(8).trim());
            reply("250 2.1.5 ok");
            break;
          case "DATA":
            inData = true;
            reply("354 end with <CRLF>.<CRLF>");
            break;
          case "RSET":
            envelope = { from: "", to: [], data: "" };
            reply("250 2.0.0 ok");
            break;
          case "NOOP":
            reply("250 2.0.0 ok");
            break;
          case "QUIT":
            reply("221 2.0.0 bye");
            socket.end();
            break;
          default:
            reply("502 5.5.2 not implemented");
        }
      }
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
