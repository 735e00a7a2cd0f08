import { describe, expect, it } from 'vitest';
import { SetupFailure } from '../../src/api-setup/setup-failure.js';
import { SkipCheck } from '../../src/runner/skip-check.js';
import { untilAborted } from './webhook-deliveries.js';

describe('untilAborted', () => {
  it('gives undefined only for the abort; a setup failure or skip of the awaited step reaches the runner', async () => {
    const controller = new AbortController();
    const skip = new SkipCheck('needs a webhook receiver', 'needs-input', '--webhook-secret');
    await expect(untilAborted(Promise.reject(skip), controller.signal)).rejects.toBe(skip);
    const failure = new SetupFailure('webhook trio', 'answered 500', 'Events');
    await expect(untilAborted(Promise.reject(failure), controller.signal)).rejects.toBe(failure);
    await expect(untilAborted(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    const never = new Promise<number>(() => undefined);
    const waiting = untilAborted(never, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
