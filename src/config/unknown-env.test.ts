import { describe, expect, it } from 'vitest';
import { editDistance, formerEnvWarnings, unknownEnvWarnings } from './unknown-env.js';

describe('unknown SVC_* variables', () => {
  it('warns once per unknown variable, in name order, naming the nearest known one', () => {
    const env = { SVC_STRICTT: '1', SVC_BASE_URL: 'x', PATH: '/bin', SVC_REPORT_DIRS: 'r' };
    expect(unknownEnvWarnings(env, ['SVC_STRICT', 'SVC_BASE_URL', 'SVC_REPORT_DIR', 'SVC_REPORTER'])).toEqual([
      'warning: SVC_REPORT_DIRS is not a svc-certify variable (did you mean SVC_REPORT_DIR?)',
      'warning: SVC_STRICTT is not a svc-certify variable (did you mean SVC_STRICT?)',
    ]);
  });

  it('says nothing when every SVC_* variable is known', () => {
    expect(unknownEnvWarnings({ SVC_STRICT: '1', HOME: '/' }, ['SVC_STRICT'])).toEqual([]);
  });

  it('measures edit distance', () => {
    expect([editDistance('kitten', 'sitting'), editDistance('', 'abc'), editDistance('same', 'same')]).toEqual([
      3, 3, 0,
    ]);
  });

  it('never warns about the names Kubernetes injects for a Service named svc or svc-…', () => {
    const env = {
      SVC_SERVICE_HOST: '10.0.0.1',
      SVC_SERVICE_PORT: '80',
      SVC_SERVICE_PORT_HTTP: '80',
      SVC_PORT_80_TCP: 'tcp://10.0.0.1:80',
      SVC_PORT_80_TCP_PROTO: 'tcp',
      SVC_PORT_80_TCP_PORT: '80',
      SVC_PORT_80_TCP_ADDR: '10.0.0.1',
      SVC_CERTIFY_PORT: 'tcp://10.0.0.2:8080',
      SVC_CERTIFY_SERVICE_HOST: '10.0.0.2',
    };
    expect(unknownEnvWarnings(env, ['SVC_STRICT', 'SVC_PORT_NUMBER'])).toEqual([]);
  });
});

describe('renamed SVC_* variables', () => {
  const RENAMED = [
    { former: 'SVC_PORT', current: 'SVC_PORT_NUMBER' },
    { former: 'SVC_URL', current: 'SVC_RECEIVER_URL' },
  ];

  it('a former name with a value of ours is read for this release, and the warning names the new name', () => {
    expect(formerEnvWarnings({ SVC_PORT: '8080', SVC_URL: 'https://x.example/hook' }, RENAMED)).toEqual([
      'warning: SVC_PORT is read for this release only: rename it SVC_PORT_NUMBER (Kubernetes sets names like SVC_PORT for a Service named svc)',
      'warning: SVC_URL is read for this release only: rename it SVC_RECEIVER_URL (Kubernetes sets names like SVC_URL for a Service named svc)',
    ]);
  });

  it("Kubernetes' own value (tcp://…) is neither read nor warned about; a former name beside its new one is ignored, saying so", () => {
    expect(formerEnvWarnings({ SVC_PORT: 'tcp://10.96.0.12:80' }, RENAMED)).toEqual([]);
    expect(formerEnvWarnings({ SVC_PORT: '8080', SVC_PORT_NUMBER: '9090' }, RENAMED)).toEqual([
      'warning: SVC_PORT is ignored: SVC_PORT_NUMBER, its new name, is set too; remove SVC_PORT',
    ]);
  });
});
