import { describe, expect, it } from 'vitest';
import { OVERSIZED_EVIDENCE_BYTES, createBodySink } from './body-cap.js';

describe('body cap', () => {
  it('keeps a body within the limit whole, the limit itself included', () => {
    const sink = createBodySink(6);
    expect(sink.push(Buffer.from('abc'))).toBe(true);
    expect(sink.push(Buffer.from('def'))).toBe(true);
    expect(sink.finish()).toEqual({ bytes: Buffer.from('abcdef'), received: 6, overLimit: false });
  });

  it('says stop at the chunk that crosses the limit, counting every byte received', () => {
    const sink = createBodySink(4);
    expect(sink.push(Buffer.from('abc'))).toBe(true);
    expect(sink.push(Buffer.from('defgh'))).toBe(false);
    const body = sink.finish();
    expect(body.overLimit).toBe(true);
    expect(body.received).toBe(8);
    // Over the limit, the evidence is the first bytes (at most 64 KiB; here the 4 kept).
    expect(body.bytes.toString()).toBe('abcd');
  });

  it('keeps only the first 64 KiB of an answer over a larger limit', () => {
    const max = 3 * OVERSIZED_EVIDENCE_BYTES;
    const sink = createBodySink(max);
    const chunk = Buffer.alloc(50_000, 'x');
    chunk[0] = 0x61; // 'a' marks where each chunk starts
    let pushes = 0;
    while (sink.push(chunk)) pushes++;
    const body = sink.finish();
    expect(pushes).toBe(Math.floor(max / chunk.length));
    expect(body.overLimit).toBe(true);
    expect(body.received).toBe((pushes + 1) * chunk.length);
    expect(body.bytes.length).toBe(OVERSIZED_EVIDENCE_BYTES);
    expect(body.bytes.subarray(0, 50_001).toString('latin1')).toBe(chunk.toString('latin1') + 'a');
  });
});
