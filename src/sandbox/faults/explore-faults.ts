// What generated requests find (the explore suite): one fault per property class, each a bug real
// services ship. They act at the body and answer points, or in jsonBody (context.ts).
import { FloatToken, type JsonRecord } from '../json.js';
import type { FaultDefinition } from './types.js';

/** A loose reader that takes a number for text, as its digits. */
function looseText(body: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...body };
  for (const k of ['title', 'description_text', 'location_text']) {
    const v = out[k];
    if (typeof v === 'number') out[k] = String(v);
  }
  return out;
}

const ENDPOINTS = ['users', 'jobs', 'runs-start', 'decisions', 'reveal'] as const;
const others = (property: string, first: string): string[] =>
  ENDPOINTS.filter((e) => e !== first).map((e) => `explore.${e}.${property}`);

export const exploreFaults = [
  {
    id: 'explore.array-body-500',
    area: 'explore',
    summary: 'a JSON array as the whole request body crashes the body parser: 500 instead of a 4xx',
    caughtBy: 'explore.reveal.schema-mismatch-answered-4xx',
    alsoCaughtBy: others('schema-mismatch-answered-4xx', 'reveal'),
  },
  {
    id: 'explore.job-text-number-stored',
    area: 'explore',
    summary: 'a number where a job text field goes (`title: 42`) is accepted and stored as its digits',
    caughtBy: 'explore.jobs.schema-mismatch-answered-4xx',
    acts: {
      body: (b, f) => (f.route === 'jobs' ? looseText(b) : b),
    },
  },
  {
    id: 'explore.target-count-fraction-rounded',
    area: 'explore',
    summary: 'a fractional `target_count` (`2.5`) is rounded and the run started, instead of a 4xx',
    caughtBy: 'explore.runs-start.schema-mismatch-answered-4xx',
    acts: {
      body: (b, f) =>
        f.route === 'runs-start' && b.target_count instanceof FloatToken
          ? { ...b, target_count: Math.round(Number(b.target_count.raw)) }
          : b,
    },
  },
  {
    id: 'explore.outside-bmp-500',
    area: 'explore',
    summary: 'a character outside the Basic Multilingual Plane (an emoji) in a request body answers 500',
    caughtBy: 'explore.users.valid-input-never-5xx',
    alsoCaughtBy: others('valid-input-never-5xx', 'users'),
  },
  {
    id: 'explore.non-ascii-success-off-schema',
    area: 'explore',
    summary:
      'a 2xx to a request body holding non-ASCII text is wrapped in an array (an encoding path that builds the answer apart)',
    caughtBy: 'explore.users.success-matches-response-schema',
    alsoCaughtBy: others('success-matches-response-schema', 'users'),
    acts: {
      answer: (r, f) =>
        r.status >= 200 && r.status < 300 && /[^\x00-\x7f]/.test(f.requestText()) ? { ...r, body: [r.body] } : r,
    },
  },
] as const satisfies readonly FaultDefinition[];
