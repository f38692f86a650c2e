/**
 * Random bytes for ids and trace ids, drawn from a pool the CSPRNG refills 4 KiB at a time.
 * crypto.randomBytes costs a call into the CSPRNG (and an allocation) each time; request ids,
 * trace ids and span ids take 8 to 16 bytes several times per request. The bytes are the
 * same CSPRNG's, each handed out once, so they are exactly as unguessable (Node's own
 * randomUUID pools the same way). Never for keys or nonces: those keep randomBytes.
 */
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `count` (at most 4096) fresh random bytes, copied out of the pool. */
export function pooledRandomBytes(count: number): Buffer {
  if (count > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} bytes, got ${count}`);
  if (offset + count > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + count));
  // Consumed bytes are overwritten, so a copy kept by mistake never reveals a later id.
  pool.fill(0, offset, offset + count);
  offset += count;
  return bytes;
}
