// What generated requests find (the explore suite): one fault per property class, each a bug real
// services ship. They act at the body and answer points, or in jsonBody (context.ts).
import { ApiError } from '../api-error.js';
import { FloatToken, type JsonRecord } from '../json.js';
import type { FaultDefinition } from './types.js';
import { onBody } from './points.js';

/** A loose reader that takes a number for text, as its digits, in the named fields. */
function looseText(body: JsonRecord, fields: readonly string[]): JsonRecord {
  const out: JsonRecord = { ...body };
  for (const k of fields) {
    const v = out[k];
    if (typeof v === 'number') out[k] = String(v);
  }
  return out;
}

/** The endpoints the exploration sends to; redeem has no success to judge (it names a code never issued). */
const ENDPOINTS = ['users', 'jobs', 'runs-start', 'decisions', 'reveal', 'redeem'] as const;
const SUCCEEDING = ENDPOINTS.filter((e) => e !== 'redeem');
const others = (property: string, first: string): string[] =>
  (property === 'success-matches-response-schema' ? SUCCEEDING : ENDPOINTS)
    .filter((e) => e !== first)
    .map((e) => `explore.${e}.${property}`);

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/** A crash of the route on one field, answered as the framework answers an unhandled error. */
function crash(): never {
  throw new ApiError(500, 'internal_error');
}

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
      body: onBody('jobs', (b) => looseText(b, ['title', 'description_text', 'location_text'])),
    },
  },
  {
    id: 'explore.target-count-fraction-rounded',
    area: 'explore',
    summary: 'a fractional `target_count` (`2.5`) is rounded and the run started, instead of a 4xx',
    caughtBy: 'explore.runs-start.schema-mismatch-answered-4xx',
    acts: {
      body: onBody('runs-start', (b) =>
        b.target_count instanceof FloatToken ? { ...b, target_count: Math.round(Number(b.target_count.raw)) } : b,
      ),
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
  // Single-field defects: each is found by the sweep every certification sends, whatever the seed.
  {
    id: 'explore.user-name-number-stored',
    area: 'explore',
    summary: "a number as a recruiter's `full_name` (`full_name: 12345`) is accepted and stored as its digits",
    caughtBy: 'explore.users.schema-mismatch-answered-4xx',
    acts: {
      body: onBody('users', (b) => looseText(b, ['full_name'])),
    },
  },
  // A target_count written as a string of digits, read as the number: runs-start.target-count-string-coerced,
  // which names this suite's runs-start check too.
  {
    id: 'explore.job-title-emoji-500',
    area: 'explore',
    summary:
      'an emoji (a character outside the BMP) in a job `title` answers 500: the title column holds 3-byte UTF-8 only',
    caughtBy: 'explore.jobs.valid-input-never-5xx',
    acts: {
      body: onBody('jobs', (b) => (typeof b.title === 'string' && ASTRAL.test(b.title) ? crash() : b)),
    },
  },
  {
    id: 'explore.redeem-code-non-string-500',
    area: 'explore',
    summary:
      'an activation `code` that is not a string (`code: 12345`) crashes the code normalizer: 500 instead of a 4xx',
    caughtBy: 'explore.redeem.schema-mismatch-answered-4xx',
    acts: {
      body: onBody('redeem', (b) => (b.code !== undefined && typeof b.code !== 'string' ? crash() : b)),
    },
  },
] as const satisfies readonly FaultDefinition[];
