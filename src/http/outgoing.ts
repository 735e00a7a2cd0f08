// A RequestSpec made into what goes on the wire: the URL under the base, the credentials its `auth`
// asks for, language, a JSON body written losslessly, and the caller's own headers last.

import { stringifyJsonLossless } from '../json/lossless.js';
import type { Outgoing } from './exchange.js';
import type { RequestSpec } from './types.js';

export interface Credentials {
  baseUrl: string;
  partnerKey: string;
  /** The primary org token, read when a request needs it (undefined before redemption). */
  orgToken: () => string | undefined;
  userAgent?: string;
}

/** baseUrl + path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function buildOutgoing(spec: RequestSpec, creds: Credentials): Outgoing {
  const headers: Record<string, string> = {
    'user-agent': creds.userAgent ?? 'svc-certify',
    accept: 'application/json',
  };
  const auth = spec.auth ?? 'partner+org';
  let partnerKey: string | undefined;
  let orgToken: string | undefined;
  if (auth === 'partner+org') {
    partnerKey = creds.partnerKey;
    orgToken = creds.orgToken();
  } else if (auth === 'partner') {
    partnerKey = creds.partnerKey;
  } else if (auth !== 'none') {
    ({ partnerKey, orgToken } = auth);
  }
  if (partnerKey !== undefined) headers['x-partner-key'] = partnerKey;
  if (orgToken !== undefined) headers['x-svc-org'] = orgToken;
  if (spec.lang) headers['x-svc-lang'] = spec.lang;
  const out: Outgoing = { method: spec.method.toUpperCase(), url: joinUrl(creds.baseUrl, spec.path), headers };
  if (spec.rawBody !== undefined) {
    out.body = spec.rawBody;
    out.bodyText = typeof spec.rawBody === 'string' ? spec.rawBody : Buffer.from(spec.rawBody).toString('utf8');
  } else if (spec.body !== undefined) {
    out.body = out.bodyText = stringifyJsonLossless(spec.body);
    headers['content-type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
  return out;
}
