// The size cap on an answer. Reading stops past the limit; what was kept is the evidence, and for
// an answer over the limit only its first 64 KiB: one full copy per request in flight is what a
// target answering huge bodies would cost (commit fe60878: 215-220 MB peak RSS instead of 394-435).

/** What an answer over the body limit keeps as evidence: its first 64 KiB. */
export const OVERSIZED_EVIDENCE_BYTES = 64 * 1024;

interface CappedBody {
  bytes: Buffer;
  /** Bytes received, more than `bytes` holds when the body was over the limit. */
  received: number;
  overLimit: boolean;
}

export interface BodySink {
  /** Keeps what fits under the limit; false once the body went over it (stop reading). */
  push(chunk: Buffer): boolean;
  /** What was read so far (all of it, or the first 64 KiB when over the limit). */
  finish(): CappedBody;
}

function firstBytes(chunks: readonly Buffer[], limit: number): Buffer {
  const kept: Buffer[] = [];
  let size = 0;
  for (const c of chunks) {
    if (size >= limit) break;
    const part = c.subarray(0, limit - size);
    kept.push(part);
    size += part.length;
  }
  return Buffer.concat(kept);
}

export function createBodySink(maxBytes: number): BodySink {
  const chunks: Buffer[] = [];
  let kept = 0;
  let received = 0;
  return {
    push(chunk) {
      received += chunk.length;
      const room = maxBytes - kept;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(room, chunk.length);
      return received <= maxBytes;
    },
    finish() {
      const overLimit = received > maxBytes;
      const bytes = overLimit ? firstBytes(chunks, OVERSIZED_EVIDENCE_BYTES) : Buffer.concat(chunks);
      chunks.length = 0;
      return { bytes, received, overLimit };
    },
  };
}
