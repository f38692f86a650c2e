/**
 * SMTP through nodemailer. The Message-ID is derived from the outbox id, so a message sent
 * twice (the process died between the server's acceptance and recording it) carries the
 * same Message-ID and mail software can recognise the duplicate.
 */
import type * as NodemailerModule from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Mailer, OutgoingMail } from "./mailer.js";

export interface SmtpConfig {
  host: string;
  port: number;
  /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
  secure: boolean;
  user?: string | undefined;
  password?: string | undefined;
  /** The From header, e.g. "Petri <no-reply@petri.example>". */
  from: string;
  /** Extra trusted CA certificates (tests); default: the system's. */
  ca?: string | undefined;
}

const SMTP_TIMEOUT_MS = 10_000;

// Loaded on the first mail: a deployment without SMTP (mail kept in sent_mail) never loads it.
let nodemailer: Promise<typeof NodemailerModule> | undefined;
const loadNodemailer = () => (nodemailer ??= import("nodemailer"));

export class SmtpMailer implements Mailer {
  readonly transport = "smtp";
  private transporter: Promise<Transporter> | undefined;
  private readonly domain: string;

  constructor(private readonly config: SmtpConfig) {
    this.domain = /@([^>\s]+)>?\s*$/.exec(config.from)?.[1] ?? "petri.invalid";
  }

  /** The SMTP transport, created with the first mail. */
  private connect(): Promise<Transporter> {
    const config = this.config;
    this.transporter ??= loadNodemailer().then(({ default: mailer }) =>
      mailer.createTransport({
        host: config.host,
        port: config.port,
        secure: config.secure,
        ...(config.user ? { auth: { user: config.user, pass: config.password ?? "" } } : {}),
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
        ...(config.ca ? { tls: { ca: config.ca } } : {}),
      }),
    );
    return this.transporter;
  }

  async send(mail: OutgoingMail): Promise<{ messageId?: string }> {
    const transporter = await this.connect();
    const info = await transporter.sendMail({
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      messageId: `<${mail.id}@${this.domain}>`,
    });
    return { messageId: info.messageId };
  }

  async close(): Promise<void> {
    const transporter = await this.transporter?.catch(() => undefined);
    transporter?.close();
  }
}
