// Small helpers the faults' transforms share: a refusal said otherwise, a reply with its body edited.
import { ApiError, type Reply } from '../api-error.js';
import type { Wire } from './points.js';

/** The same refusal with some of its parts replaced. */
export function reword(
  e: ApiError,
  parts: { status?: number; code?: string; extra?: Record<string, unknown>; headers?: Record<string, string> },
): ApiError {
  return new ApiError(
    parts.status ?? e.status,
    parts.code ?? e.code,
    parts.extra ?? e.extra,
    parts.headers ?? e.headers,
  );
}

/** A copy of the reply whose JSON object body `edit` changes in place. */
export function edited(reply: Reply, edit: (body: Record<string, unknown>) => void): Reply {
  const body: Record<string, unknown> = { ...(reply.body as Record<string, unknown>) };
  edit(body);
  return { ...reply, body };
}

/** The reply without the members a fixture adds for clients to ignore. */
export function withoutExtraFields(reply: Reply): Reply {
  return edited(reply, (b) => {
    delete b.zz_extra_top_level;
    delete b.zz_future_object;
  });
}

/** The answer as it leaves, without one of its headers. */
export function withoutHeader(w: Wire, name: string): Wire {
  const { [name]: _dropped, ...headers } = w.headers;
  return { ...w, headers };
}
