import type { VariantDefinition } from './types.js';

// Wire-level choices: how an answer is framed, encoded and typed. Each is applied at one point of the
// response pipeline (src/sandbox/app.ts finish(), src/sandbox/server.ts) or of the webhook queue.
export const apiVariants = [
  {
    id: 'http.connection-close',
    area: 'http',
    summary: 'every answer carries `Connection: close` (no keep-alive)',
    allowedBy: 'the spec says nothing about connection reuse (RFC 9112 lets either side close)',
  },
  {
    id: 'http.chunked-bodies',
    area: 'http',
    summary: 'answers are sent with `Transfer-Encoding: chunked` and no `Content-Length`',
    allowedBy: 'the spec says nothing about message framing (RFC 9112)',
  },
  {
    id: 'http.added-latency',
    area: 'http',
    summary: 'every answer is delayed by 150 ms',
    allowedBy: 'the spec states no response time for the API',
  },
  {
    id: 'http.content-type-quoted-charset',
    area: 'http',
    summary: 'JSON answers have content type `application/json;charset="UTF-8"`',
    allowedBy:
      '"Responses have content type application/json; charset=utf-8" — RFC 9110 §8.3.1/§5.6.6: no space is needed before a parameter, a parameter value may be quoted, and the charset value is case-insensitive',
  },
  {
    id: 'http.content-type-upper-case',
    area: 'http',
    summary: 'JSON answers have content type `Application/JSON; Charset=UTF-8`',
    allowedBy: 'RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive, and so is the charset value',
  },
  {
    id: 'json.pretty-printed',
    area: 'json',
    summary: 'JSON bodies are pretty-printed (newlines, two-space indent)',
    allowedBy: '"The request and response body format is JSON (UTF-8)": insignificant whitespace is JSON',
  },
  {
    id: 'json.unicode-escaped',
    area: 'json',
    summary: 'every non-ASCII character in a JSON body is written as a \\uXXXX escape',
    allowedBy: 'RFC 8259 §7: any character may be escaped; the parsed value is the same',
  },
  {
    id: 'json.timestamps-offset-form',
    area: 'json',
    summary: 'timestamps in answers and webhooks end in `+00:00` instead of `Z`',
    allowedBy: '"Timestamps are ISO 8601 in UTC": `+00:00` is UTC in ISO 8601',
  },
  {
    id: 'json.timestamps-basic-format',
    area: 'json',
    summary: 'timestamps in answers and webhooks are written in the ISO 8601 basic format: `20250102T030405.678Z`',
    allowedBy:
      '"Timestamps are ISO 8601 in UTC": the basic format is ISO 8601 (clients that expect the RFC 3339 form would refuse it, hence the warnings)',
    warns: ['activation.already-redeemed-409', 'webhooks.occurred-at-utc', 'webhooks.real-run-deliveries-valid'],
  },
  {
    id: 'json.null-members-omitted',
    area: 'json',
    summary:
      'a serializer set to leave out nulls (NON_NULL, the default of many frameworks): a RequirementIssue without a suggestion (every `duplicate` here) has no suggestion_he/suggestion_en, a CandidateRequirement without evidence has no evidence',
    allowedBy:
      'RequirementIssue `suggestion_he`, `suggestion_en` and CandidateRequirement `evidence`: "string or null", in tables that state no field required (unlike Run\'s "Required fields", Candidate\'s "All fields required", the Required column of Notice, and "both languages always present")',
  },
  {
    id: 'json.decision-counts-as-decimals',
    area: 'json',
    summary: 'the decisions answer writes its counts with a fraction part: `"accepted": 3.0`',
    allowedBy:
      'Response: "accepted (integer), duplicates (integer)"; RFC 8259 has one number type, and 3.0 is the integer 3, though strict decoders refuse it',
    warns: [
      'decisions.candidate-id-above-2-53',
      'decisions.duplicates-counted',
      'decisions.every-reject-reason-accepted',
      'decisions.new-occurred-at-is-new-entry',
      'decisions.notices-shown-unknown-codes-accepted',
      'decisions.reject-reason-null-accepted',
      'decisions.rejection-stores-nothing',
      'decisions.response-schema',
    ],
  },
  {
    id: 'additive.response-fields',
    area: 'additive',
    summary: 'every 2xx JSON object answer carries an extra top-level field `zz_variant_field`',
    allowedBy: 'Versioning 2: new response fields are additive; "the service may add fields at any time"',
  },
  {
    id: 'additive.error-fields',
    area: 'additive',
    summary: 'every error envelope carries extra fields `request_id` and `details`',
    allowedBy: 'Errors: "(extra fields) … additional properties allowed"',
  },
  {
    id: 'additive.webhook-fields',
    area: 'additive',
    summary: 'every webhook body carries an extra field `zz_variant_field`',
    allowedBy: 'Versioning 2: new webhook fields; Events rule 7: receivers ignore unknown fields',
  },
] as const satisfies readonly VariantDefinition[];
