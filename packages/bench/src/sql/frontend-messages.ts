/**
 * Counts the SQL statements a PostgreSQL client sends, from the bytes it writes (the frontend
 * side of the wire protocol), without touching the server's settings.
 *
 * After an untyped startup packet (int32 length, int32 protocol code; an SSLRequest or
 * GSSENCRequest comes first and is answered with one byte, then the real startup packet
 * follows), every message is a type byte and an int32 length that counts itself. A simple
 * Query ('Q') and an extended-protocol Execute ('E') each run one statement (a Query may hold
 * several separated by semicolons; it counts once: what is counted is round trips of SQL).
 */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

export class FrontendMessageCounter {
  private pending: Buffer = Buffer.alloc(0);
  private startup = true;
  /** An SSLRequest or GSSENCRequest was sent: the server's next byte says whether TLS follows. */
  private awaitingEncryptionAnswer = false;
  /** Set once the stream cannot be followed (encryption accepted). */
  private lost = false;
  statements = 0;

  /** Feeds the next chunk the client wrote. */
  push(chunk: Buffer): void {
    if (this.lost) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let offset = 0;
    for (;;) {
      if (this.startup) {
        if (this.pending.length - offset < 8) break;
        const length = this.pending.readInt32BE(offset);
        if (this.pending.length - offset < length) break;
        const code = this.pending.readInt32BE(offset + 4);
        offset += length;
        // The encryption requests are followed by another, real, startup packet.
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) this.awaitingEncryptionAnswer = true;
        else this.startup = false;
        continue;
      }
      if (this.pending.length - offset < 5) break;
      const length = this.pending.readInt32BE(offset + 1);
      if (this.pending.length - offset < 1 + length) break;
      const type = this.pending[offset];
      if (type === 0x51 /* Q */ || type === 0x45 /* E */) this.statements += 1;
      offset += 1 + length;
    }
    this.pending = this.pending.subarray(offset);
  }

  /** Feeds what the server wrote: 'S' or 'G' to an encryption request means the rest is unreadable. */
  serverWrote(chunk: Buffer): void {
    if (!this.awaitingEncryptionAnswer || chunk.length === 0) return;
    this.awaitingEncryptionAnswer = false;
    if (chunk[0] === 0x53 /* S */ || chunk[0] === 0x47 /* G */) this.lost = true;
  }
}
