/**
 * The Mailer port. The mail dispatcher hands it one message at a time and records what was
 * sent in `sent_mail` (every transport), so the log of sent mail is the same whatever
 * carries it.
 */
export interface OutgoingMail {
  /** The mail_outbox id; SMTP uses it for a stable Message-ID. */
  id: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** "table" or "smtp": recorded with each sent mail. */
  readonly transport: string;
  /** Sends the message or throws; resolves with the transport's message id when it has one. */
  send(mail: OutgoingMail): Promise<{ messageId?: string }>;
  close(): Promise<void>;
}

/**
 * The standalone default (and the default whenever no SMTP server is configured): no mail
 * leaves the process; the message is kept in the `sent_mail` table, where staff read it
 * (ListSentMail). Recording it is the dispatcher's transaction, so each message is kept
 * exactly once.
 */
export class TableOnlyMailer implements Mailer {
  readonly transport = "table";

  async send(): Promise<{ messageId?: string }> {
    return {};
  }

  async close(): Promise<void> {}
}
