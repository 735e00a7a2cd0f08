// The single point where the wire-level variants change an answer of the API (called by app.ts finish()).

import {
  addTopLevelField,
  basicTimestamps,
  escapeNonAscii,
  offsetTimestamps,
  omitMembers,
  prettyJson,
} from './body-forms.js';
import type { VariantSet } from './index.js';

/** The JSON content type, in the RFC 9110-equivalent form a variant asks for. */
export function contentTypeFor(variants: VariantSet): string {
  if (variants.has('http.content-type-quoted-charset')) return 'application/json;charset="UTF-8"';
  if (variants.has('http.content-type-upper-case')) return 'Application/JSON; Charset=UTF-8';
  return 'application/json; charset=utf-8';
}

/** RequirementIssue's suggestions and CandidateRequirement's evidence: "string or null". */
const NULL_OMITTED = ['suggestion_he', 'suggestion_en', 'evidence'];

export function applyBodyVariants(bytes: Buffer, status: number, variants: VariantSet): Buffer {
  let text = bytes.toString('utf8');
  if (status >= 200 && status < 300 && variants.has('additive.response-fields')) {
    text = addTopLevelField(text, 'zz_variant_field', '{"added_by":"variant additive.response-fields"}');
  }
  if (status >= 400 && variants.has('additive.error-fields')) {
    text = addTopLevelField(text, 'details', '[{"hint":"additional properties allowed"}]');
    text = addTopLevelField(text, 'request_id', '"req_0123456789abcdef"');
  }
  // A serializer that leaves out nulls (NON_NULL) on the two types whose tables state no field required,
  // behind an engine that has no suggestion for a duplicate (null, so left out too).
  if (variants.has('json.null-members-omitted'))
    text = omitMembers(
      text,
      (key, value, parent) =>
        NULL_OMITTED.includes(key) &&
        (value === null || (key.startsWith('suggestion_') && parent.code === 'duplicate')),
    );
  // Requirements the partner did not send (derived, the appended title) carry no origin: only `partner` is shown.
  if (status >= 200 && status < 300 && variants.has('runs-start.derived-requirements-without-origin'))
    text = omitMembers(text, (key, value, parent) => key === 'origin' && value !== 'partner' && 'kind' in parent);
  if (variants.has('json.timestamps-offset-form')) text = offsetTimestamps(text);
  if (variants.has('json.timestamps-basic-format')) text = basicTimestamps(text);
  if (variants.has('json.unicode-escaped')) text = escapeNonAscii(text);
  if (variants.has('json.pretty-printed')) text = prettyJson(text);
  return Buffer.from(text, 'utf8');
}
