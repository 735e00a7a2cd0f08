// The signed record as another party checks it: a certifying command (scan, the quickest one through
// finishCertification) signs with --sign-key, then two verifiers judge the record: `svc-certify verify`
// and one written here from the published DSSE protocol (secure-systems-lab/dsse, protocol.md) and the
// in-toto Statement v1, importing nothing of this project's signer. A one-byte change of the payload,
// the signature or results.json is refused by both.

import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, tmp } from './cli-support.js';

interface Envelope {
  payload: string;
  payloadType: string;
  signatures: { keyid?: string; sig: string }[];
}

/** protocol.md: PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body; LEN in bytes, ASCII decimal. */
function pae(type: string, body: Buffer): Buffer {
  const t = Buffer.from(type, 'utf8');
  return Buffer.concat([
    Buffer.from('DSSEv1', 'ascii'),
    Buffer.from(' '),
    Buffer.from(String(t.length), 'ascii'),
    Buffer.from(' '),
    t,
    Buffer.from(' '),
    Buffer.from(String(body.length), 'ascii'),
    Buffer.from(' '),
    body,
  ]);
}

/** The independent verifier: true when the envelope's signature holds and (given) results.json is the subject signed. */
function independentlyVerified(recordText: string, publicKeyPem: string, results?: Buffer): boolean {
  const envelope = JSON.parse(recordText) as Envelope;
  if (envelope.payloadType !== 'application/vnd.in-toto+json') return false;
  const body = Buffer.from(envelope.payload, 'base64');
  // Accept only the canonical encoding: the bytes signed are the bytes shown.
  if (body.toString('base64') !== envelope.payload) return false;
  const key = createPublicKey(publicKeyPem);
  const signed = envelope.signatures.some((s) =>
    verify(null, pae(envelope.payloadType, body), key, Buffer.from(s.sig, 'base64')),
  );
  if (!signed) return false;
  const statement = JSON.parse(body.toString('utf8')) as {
    _type: string;
    predicateType: string;
    subject: { name: string; digest: Record<string, string> }[];
  };
  if (statement._type !== 'https://in-toto.io/Statement/v1') return false;
  if (statement.predicateType !== 'https://in-toto.io/attestation/test-result/v0.1') return false;
  if (!statement.subject.every((s) => Object.keys(s.digest ?? {}).length > 0)) return false;
  if (results === undefined) return true;
  const digest = createHash('sha256').update(results).digest('hex');
  return statement.subject.some((s) => s.name === 'results.json' && s.digest.sha256 === digest);
}

function flipByte(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt8(copy.readUInt8(at) ^ 1, at);
  return copy;
}

describe('a signed record checked by a verifier that is not ours', () => {
  const dir = tmp('svc-signed-');
  const keys = generateKeyPairSync('ed25519');
  const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let record = '';
  let results = Buffer.alloc(0);
  let signing = { code: null as number | null, stdout: '', stderr: '' };

  beforeAll(async () => {
    writeFileSync(join(dir, 'k.pem'), privatePem);
    writeFileSync(join(dir, 'pub.pem'), publicPem);
    writeFileSync(join(dir, 'clean.js'), 'const ready = true;');
    signing = await run(['scan', 'clean.js', '--sign-key', 'k.pem'], { cwd: dir });
    record = readFileSync(join(dir, 'reports', 'certification.intoto.json'), 'utf8');
    results = readFileSync(join(dir, 'reports', 'results.json'));
  });

  const write = (name: string, content: string | Buffer): string => {
    writeFileSync(join(dir, name), content);
    return name;
  };
  const verifyCli = (recordFile: string, extra: string[] = []) =>
    run(['verify', recordFile, '--key', 'pub.pem', ...extra], { cwd: dir });

  it('signs a certified scan, names the record with the reports, and never prints the key', async () => {
    expect(signing.code, signing.stderr).toBe(0);
    expect(signing.stdout).toContain('certification.intoto.json');
    const seed = Buffer.from(keys.privateKey.export({ format: 'jwk' }).d!, 'base64url');
    for (const text of [signing.stdout, signing.stderr, record, results.toString('utf8')]) {
      expect(text).not.toContain(privatePem.split('\n')[1]!.slice(-12));
      expect(text).not.toContain(seed.toString('base64').slice(0, 12));
    }
  });

  it('both verifiers accept the record as written, with its results file', async () => {
    expect(independentlyVerified(record, publicPem, results)).toBe(true);
    const ran = await verifyCli('reports/certification.intoto.json', ['--results', 'reports/results.json']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('verdict: certified (test result PASSED)');
    expect(ran.stdout).toMatch(/tool: +svc-certify \d+\.\d+\.\d+/);
    expect(ran.stdout).toMatch(/spec: +Partner Candidate-Matching API.*sha256 [0-9a-f]{64}/);
    expect(ran.stdout).toContain('verified: a valid signature over a certified record');
  });

  it('both refuse one changed byte of the payload', async () => {
    const envelope = JSON.parse(record) as Envelope;
    const body = Buffer.from(envelope.payload, 'base64');
    const changed = JSON.stringify({ ...envelope, payload: flipByte(body, body.indexOf('PASSED')).toString('base64') });
    expect(independentlyVerified(changed, publicPem)).toBe(false);
    const ran = await verifyCli(write('payload.intoto.json', changed));
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('refused (bad-signature)');
  });

  it('both refuse one changed byte of the signature', async () => {
    const envelope = JSON.parse(record) as Envelope;
    const sig = flipByte(Buffer.from(envelope.signatures[0]!.sig, 'base64'), 5).toString('base64');
    const changed = JSON.stringify({ ...envelope, signatures: [{ ...envelope.signatures[0], sig }] });
    expect(independentlyVerified(changed, publicPem)).toBe(false);
    const ran = await verifyCli(write('sig.intoto.json', changed));
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('refused (bad-signature)');
  });

  it('both refuse one changed byte of results.json', async () => {
    const changed = flipByte(results, results.indexOf('certified'));
    expect(independentlyVerified(record, publicPem, changed)).toBe(false);
    const ran = await verifyCli('reports/certification.intoto.json', [
      '--results',
      write('results-changed.json', changed),
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('refused (results-mismatch)');
  });

  it('refuses another key with its own reason', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(independentlyVerified(record, other)).toBe(false);
    const ran = await run(['verify', 'reports/certification.intoto.json', '--key', write('other.pem', other)], {
      cwd: dir,
    });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('refused (wrong-key)');
  });

  it('refuses a valid signature over a record that is not certified', async () => {
    const failing = tmp('svc-signed-fail-');
    writeFileSync(join(failing, 'k.pem'), privatePem);
    writeFileSync(join(failing, 'pub.pem'), publicPem);
    writeFileSync(join(failing, 'leak.js'), `const key = "spk_live_${'a1'.repeat(16)}";`);
    const scanned = await run(['scan', 'leak.js', '--sign-key', 'k.pem', '--reporter', 'json'], { cwd: failing });
    expect(scanned.code).toBe(1);
    const failedRecord = readFileSync(join(failing, 'reports', 'certification.intoto.json'), 'utf8');
    expect(independentlyVerified(failedRecord, publicPem)).toBe(true);
    const ran = await run(['verify', 'reports/certification.intoto.json', '--key', 'pub.pem'], { cwd: failing });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('verdict: not-certified');
    expect(ran.stdout).toContain('refused (not-certified)');
  });

  it('verify: a usage error (no key, an unreadable key, a missing record) exits 2 with one line', async () => {
    const cases = [
      ['verify', 'reports/certification.intoto.json'],
      ['verify', 'reports/certification.intoto.json', '--key', 'missing.pem'],
      ['verify', 'reports/certification.intoto.json', '--key', write('garbage.pem', 'not a key')],
      ['verify', 'missing.intoto.json', '--key', 'pub.pem'],
    ];
    for (const args of cases) {
      const ran = await run(args, { cwd: dir });
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('--sign-key with a bad key file exits 2 with one line, the error reports written and no record', async () => {
    const fresh = tmp('svc-signed-bad-');
    writeFileSync(join(fresh, 'clean.js'), 'const ready = true;');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    writeFileSync(join(fresh, 'rsa.pem'), rsa);
    writeFileSync(join(fresh, 'garbage.pem'), 'not a key');
    for (const key of ['missing.pem', 'garbage.pem', 'rsa.pem']) {
      const ran = await run(['scan', 'clean.js', '--sign-key', key], { cwd: fresh });
      expect(ran.code, key).toBe(2);
      expect(ran.stderr.trim().split('\n'), key).toHaveLength(1);
      expect(ran.stderr).toContain(`--sign-key ${key}`);
      expect(ran.stderr).not.toContain(rsa.split('\n')[1]!.slice(0, 24));
      // Every exit 2 after the options are read leaves its error reports (a pipeline's always-steps read
      // them), and never a record: nothing was certified, and the key could not be read.
      const written = JSON.parse(readFileSync(join(fresh, 'reports', 'results.json'), 'utf8')) as {
        verdict: string;
        error: { reason: string };
      };
      expect(written.verdict, key).toBe('error');
      expect(written.error.reason, key).toContain(`--sign-key ${key}`);
      expect(existsSync(join(fresh, 'reports', 'certification.intoto.json')), key).toBe(false);
    }
    const ran = await run(['scan', 'clean.js', '--reporter', 'html'], {
      cwd: fresh,
      env: { SVC_SIGN_KEY: 'garbage.pem' },
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--sign-key');
  });
});
