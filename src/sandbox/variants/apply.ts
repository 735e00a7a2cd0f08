// The single point where the wire-level variants change an answer of the API (called by app.ts finish()).

import { addTopLevelField, basicTimestamps, escapeNonAscii, offsetTimestamps, prettyJson } from './body-forms.js';
import type { VariantSet } from './index.js';

/** The JSON content type, in the RFC 9110-equivalent form a variant asks for. */
export function contentTypeFor(variants: VariantSet): string {
  if (variants.has('http.content-type-quoted-charset')) return 'application/json;charset="UTF-8"';
  if (variants.has('http.content-type-upper-case')) return 'Application/JSON; Charset=UTF-8';
  return 'application/json; charset=utf-8';
}

export function applyBodyVariants(bytes: Buffer, status: number, variants: VariantSet): Buffer {
  let text = bytes.toString('utf8');
  if (status >= 200 && status < 300 && variants.has('additive.response-fields')) {
    text = addTopLevelField(text, 'zz_variant_field', '{"added_by":"variant additive.response-fields"}');
  }
  if (status >= 400 && variants.has('additive.error-fields')) {
    text = addTopLevelField(text, 'details', '[{"hint":"additional properties allowed"}]');
    text = addTopLevelField(text, 'request_id', '"req_0123456789abcdef"');
  }
  if (variants.has('json.timestamps-offset-form')) text = offsetTimestamps(text);
  if (variants.has('json.timestamps-basic-format')) text = basicTimestamps(text);
  if (variants.has('json.unicode-escaped')) text = escapeNonAscii(text);
  if (variants.has('json.pretty-printed')) text = prettyJson(text);
  return Buffer.from(text, 'utf8');
}
