// One request before any check: is the target there at all (exit 2 when not), and is it the
// sandbox (x-svc-environment: sandbox) or production (header absent)?

import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../http/types.js';

export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
}

export interface PreflightResult {
  /** What x-svc-environment on this one answer says (the header under test: not the final word). */
  environment: 'sandbox' | 'production';
  status: number;
}

export async function preflight(api: ApiClient, baseUrl: string): Promise<PreflightResult> {
  // A read of a run that cannot exist, with the partner key only: harmless on any server.
  const res = await api.get(`/runs/${randomUUID()}`, { auth: 'partner', label: 'pre-flight' });
  if (res.status === 0) {
    const t = res.transportError;
    throw new TargetUnreachableError(
      `target unreachable: ${baseUrl}: ${t ? `${t.code}: ${t.message}` : 'no HTTP answer'}; check --base-url (or SVC_BASE_URL) and that the service is up`,
    );
  }
  const env = res.headers['x-svc-environment'];
  return { environment: env?.trim().toLowerCase() === 'sandbox' ? 'sandbox' : 'production', status: res.status };
}
