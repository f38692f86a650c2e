/**
 * SMTP through nodemailer. The Message-ID is derived from the outbox id, so a message sent
 * twice (the process died between the server's acceptance and recording it) carries the
 * same Message-ID and mail software can recognise the duplicate.
 */
import nodemailer, { type Transporter } from "nodemailer";
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

export class SmtpMailer implements Mailer {
  readonly transport = "smtp";
  private readonly transporter: Transporter;
  private readonly domain: string;

  constructor(private readonly config: SmtpConfig) {
    this.transporter = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      ...(config.user ? { auth: { user: config.user, pass: config.password ?? "" } } : {}),
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      ...(config.ca ? { tls: { ca: config.ca } } : {}),
    });
    this.domain = /@([^>\s]+)>?\s*$/.exec(config.from)?.[1] ?? "petri.invalid";
  }

  async send(mail: OutgoingMail): Promise<{ messageId?: string }> {
    const info = await this.transporter.sendMail({
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      messageId: `<${mail.id}@${this.domain}>`,
    });
    return { messageId: info.messageId };
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
