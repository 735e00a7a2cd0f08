import { describe, expect, it } from 'vitest';
import { createRequestControl } from './request-control.js';

describe('request control', () => {
  it('aborts its signal and keeps the first reason and message', () => {
    const control = createRequestControl();
    expect(control.signal.aborted).toBe(false);
    control.stop('aborted', 'the check was aborted');
    control.stop('timeout', 'no complete response within 5 ms');
    expect(control.signal.aborted).toBe(true);
    // Whatever undici threw for the abort, the reason given first is the evidence.
    expect(control.errorOf(Object.assign(new Error('aborted'), { code: 'UND_ERR_ABORTED' }))).toEqual({
      code: 'aborted',
      message: 'the check was aborted',
    });
  });

  it('classifies what was thrown when nobody stopped the request', () => {
    const control = createRequestControl();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(control.errorOf(refused)).toEqual({
      code: 'connection_refused',
      message: 'connect ECONNREFUSED 127.0.0.1:1',
    });
  });
});
