// The environment is judged from the target's behaviour, not only from the header under test: a
// sandbox that forgets x-svc-environment is still certified as the sandbox (its checks run) and fails
// the header check with the evidence; a production server that sends the header is still production.

import { describe, expect, it } from 'vitest';
import { certifySandbox, resultOf } from './support/certify-sandbox.js';

const HEADER_CHECK = 'sandbox.environment-header-on-every-response';
const SANDBOX_CHECK = 'fixtures.cert-empty.read-matches-table';
const PRODUCTION_CHECK = 'production.no-environment-header';
const IDS = [HEADER_CHECK, SANDBOX_CHECK, PRODUCTION_CHECK];

describe('environment from evidence (--environment auto)', () => {
  it('a sandbox without x-svc-environment fails the header check and still runs the sandbox checks', async () => {
    const run = await certifySandbox({ faults: ['sandbox.no-environment-header'], ids: IDS });
    expect(run.target.environment).toBe('sandbox');
    expect(run.target.environmentEvidence).toMatchObject({ header: 'production', behaviour: 'sandbox' });
    expect(resultOf(run, SANDBOX_CHECK).status).toBe('passed');
    const header = resultOf(run, HEADER_CHECK);
    expect(header.status).toBe('failed');
    expect(header.message).toMatch(
      /the target behaves as sandbox \(.*POST \/sandbox\/webhooks\/test with an unknown event answered 422.*unknown_fixture.*\) while x-svc-environment says production/,
    );
    expect(resultOf(run, PRODUCTION_CHECK).status).toBe('skipped');
  });

  it('a production server that sends x-svc-environment: sandbox is certified as production and fails the header check', async () => {
    const run = await certifySandbox({ mode: 'production', faults: ['production.environment-header'], ids: IDS });
    expect(run.target.environment).toBe('production');
    expect(run.target.environmentEvidence).toMatchObject({ header: 'sandbox', behaviour: 'production' });
    const header = resultOf(run, PRODUCTION_CHECK);
    expect(header.status).toBe('failed');
    expect(header.message).toContain('the target behaves as production');
    expect(resultOf(run, SANDBOX_CHECK).status).toBe('skipped');
  });

  it('a clean sandbox: the header and the behaviour agree', async () => {
    const run = await certifySandbox({ ids: IDS });
    expect(run.target.environmentEvidence).toMatchObject({ header: 'sandbox', behaviour: 'sandbox' });
    expect(run.target.environmentEvidence?.signals).toHaveLength(3);
    expect(resultOf(run, HEADER_CHECK).status).toBe('passed');
  });
});
