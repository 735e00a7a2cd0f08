// Requests before any check, none of which spends anything: is the target there at all, does it
// answer like this API, and is it the sandbox (x-svc-environment: sandbox) or production (header
// absent)? A target that is down, or that is plainly not the Partner API v1 (a web server's HTML 404
// on every path: no JSON body and no JSON content type anywhere), is a usage error (exit 2) before a
// single activation code is spent, not a list of failed checks blamed on it. An answer typed JSON
// whose body does not parse is this API with a defect: it is certified, and its checks say why.

import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../http/types.js';
import { asPlainHttp, PLAIN_HTTP_ON_TLS_MESSAGE } from '../http/transport-error.js';

export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
}

/** The target answered, but nothing it said was JSON: not this API (or not at this base URL). */
class NotThisApiError extends Error {
  override readonly name = 'NotThisApiError';
}

/** The pre-flight was cut short by SIGINT/SIGTERM: nothing was judged. */
export class PreflightInterrupted extends Error {
  override readonly name = 'PreflightInterrupted';
}

export interface PreflightResult {
  /** What x-svc-environment on this one answer says (the header under test: not the final word). */
  environment: 'sandbox' | 'production';
  status: number;
}

/** Transport outcomes that still prove something answered: an oversized answer is a finding, not absence. */
const ANSWERED_TRANSPORT = new Set(['body_too_large']);

export async function preflight(api: ApiClient, baseUrl: string, signal?: AbortSignal): Promise<PreflightResult> {
  // A read of a run that cannot exist, with the partner key only: harmless on any server.
  const res = await api.get(`/runs/${randomUUID()}`, { auth: 'partner', label: 'pre-flight' });
  if (signal?.aborted) throw new PreflightInterrupted('interrupted during the pre-flight');
  if (res.status === 0 && !ANSWERED_TRANSPORT.has(res.transportError?.code ?? '')) {
    const t = res.transportError;
    if (t?.message === PLAIN_HTTP_ON_TLS_MESSAGE) {
      throw new TargetUnreachableError(
        `target unreachable: ${baseUrl}: ${t.message}; give --base-url (or SVC_BASE_URL) as ${asPlainHttp(baseUrl)}, or the service's TLS port`,
      );
    }
    throw new TargetUnreachableError(
      `target unreachable: ${baseUrl}: ${t ? `${t.code}: ${t.message}` : 'no HTTP answer'}; check --base-url (or SVC_BASE_URL) and that the service is up` +
        (t && /cert|tls|ssl|self.signed/i.test(`${t.code} ${t.message}`)
          ? '; for a private CA, point NODE_EXTRA_CA_CERTS at its certificate'
          : ''),
    );
  }
  if (res.status !== 0 && !speaksJson(res)) {
    // One more probe with no credentials at all: the spec's 401 envelope, or any JSON, proves the API.
    const bare = await api.get(`/runs/${randomUUID()}`, { auth: 'none', label: 'pre-flight (no credentials)' });
    if (signal?.aborted) throw new PreflightInterrupted('interrupted during the pre-flight');
    if (!speaksJson(bare) && !typedJson(res) && !typedJson(bare)) {
      const shown = (r: ApiResponse): string =>
        r.status === 0
          ? `got no answer (${r.transportError?.code ?? 'transport error'})`
          : `answered ${r.status} ${r.headers['content-type']?.split(';')[0]?.trim() || 'without a content type'}`;
      throw new NotThisApiError(
        `not the Partner API v1 at ${baseUrl}: GET ${baseUrl}/runs/{id} ${shown(res)}, and without credentials ${shown(bare)} ` +
          '(the API answers JSON, with the {error, message} envelope on refusals); check --base-url (or SVC_BASE_URL): it ends in /v1',
      );
    }
  }
  const env = res.headers['x-svc-environment'];
  return { environment: env?.trim().toLowerCase() === 'sandbox' ? 'sandbox' : 'production', status: res.status };
}

function speaksJson(res: ApiResponse): boolean {
  return res.status !== 0 && res.json !== undefined;
}

/**
 * An answer labelled JSON (application/json or a +json type) is this API, even when its body does not
 * parse (a byte-order mark, a cut body, bytes that are not UTF-8): a broken deployment is certified and
 * its checks fail naming the cause; only a target with no JSON anywhere is something else.
 */
function typedJson(res: ApiResponse): boolean {
  const type = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
  return res.status !== 0 && (type === 'application/json' || type.endsWith('+json'));
}
