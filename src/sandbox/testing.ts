// Helpers for the sandbox's own tests: an in-process app with a connected organization, a user and a job.
import { createSandboxApp, type SandboxApp, type SandboxAppOptions } from './app.js';
import { parseJson, type Json } from './json.js';

interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed losslessly (ints above 2^53 are bigint). */
  json: any; // any: test assertions index freely into replies
}

export interface Harness {
  app: SandboxApp;
  partnerId: string;
  partnerKey: string;
  orgId: string;
  orgToken: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Same as call but with another org token (or none with `undefined`). */
  callAs(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  startRun(body: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply>;
}

function toBody(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(
    JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `__BIG__${v}__` : v)).replace(
      /"__BIG__(-?\d+)__"/g,
      '$1',
    ),
  );
}

export async function harness(opts: SandboxAppOptions = {}): Promise<Harness> {
  const app = createSandboxApp(opts);
  const p = app.operator.createPartner({ rateLimitPerMinute: 100_000, rateLimitPerDay: 1_000_000 });
  const org = app.operator.connectOrganization(p.partnerId, 'org-main', 'Main Org');
  const callAs = async (
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const h: Record<string, string> = { 'x-partner-key': p.partnerKey, ...headers };
    if (token !== undefined) h['x-svc-org'] = token;
    if (body !== undefined && !('content-type' in h)) h['content-type'] = 'application/json';
    const res = await app.request({ method, path: `/v1${path}`, headers: h, body: toBody(body) });
    const text = res.body.toString('utf8');
    let json: Json | undefined;
    try {
      json = parseJson(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  const h: Harness = {
    app,
    partnerId: p.partnerId,
    partnerKey: p.partnerKey,
    orgId: org.organizationId,
    orgToken: org.orgToken,
    callAs,
    call: (method, path, body, headers) => callAs(org.orgToken, method, path, body, headers),
    startRun: (body, headers) =>
      h.call('POST', '/runs', { acting_user_external_id: 'rec-1', target_count: 5, ...body }, headers),
  };
  await h.call('POST', '/users', {
    external_id: 'rec-1',
    email: 'rec@example.com',
    full_name: 'Rec One',
    role: 'recruiter',
  });
  await h.call('POST', '/jobs', {
    external_id: 'job-1',
    title: 'Backend Developer',
    description_text: 'Node.js and PostgreSQL services.',
    location_text: 'Tel Aviv, Israel',
  });
  return h;
}
