// A job's description is plain text (Resources and their fields › Job: `description_text` "plain text,
// HTML stripped by the partner"): evident markup fails, a tag-shaped token that may be text warns, and a
// lone `<` or `&` in prose is text.

import { S } from '../../spec/sections.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

/**
 * HTML element names: a tag is `<name …>`, `</name>` or `<name/>` of one of these. A generic `<T>` or
 * `a < b` in prose is not markup, so only names HTML defines are taken for tags.
 */
const ELEMENTS =
  'a|abbr|b|blockquote|body|br|center|code|div|dd|dl|dt|em|font|h[1-6]|head|hr|html|i|img|li|ol|p|pre|s|section|small|span|strike|strong|style|sub|sup|table|tbody|td|th|thead|tr|u|ul|script|article|header|footer|nav|mark|label|button|input|form';
const TAG = new RegExp(`</?(?:${ELEMENTS})(?:\\s[^<>]*)?/?>`, 'gi');

/**
 * A tag-shaped token is left-over markup without doubt when its name is written in one case, as editors
 * and browsers write HTML (`<p>`, legacy `<P>`), and it carries an attribute, opens the text, or opens an
 * element that a matching closing tag ends around words (`<b>Node</b>`). Any other (`Vec<A>`, a
 * `<Button>` component, a lone `</div>` or `<br>` in "semantic HTML: <header>, <div>, </div>, <br>") may
 * be the text of a code sample or of a job about HTML itself, which stripping HTML leaves in place (it
 * was `&lt;br&gt;`): a warning.
 */
function evidentMarkup(tag: string, index: number, text: string): boolean {
  const name = /^<\/?([a-z0-9]+)/i.exec(tag)?.[1] ?? '';
  if (name !== name.toLowerCase() && name !== name.toUpperCase()) return false;
  if (/\s[a-z-]+\s*=/i.test(tag) || index === 0) return true;
  if (tag.startsWith('</')) return false;
  const rest = text.slice(index + tag.length);
  const close = rest.indexOf(`</${name}>`);
  return close > 0 && /[\p{L}\p{N}]/u.test(rest.slice(0, close).replace(/<[^<>]*>/g, ''));
}

/** HTML character references: text taken from HTML without decoding them ("AT&amp;T", "&nbsp;"). */
const ENTITY = /&(?:nbsp|amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/i;

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export const descriptionRule: Rule = {
  id: 'requests.job-description-plain-text',
  title: 'A job description_text is plain text (HTML stripped)',
  suite: 'requests',
  evidence: 'provoked',
  warns: ['description_text holds an HTML character reference or tag-like text (code, or a job about HTML)'],
  spec: [S.job, S.jobs],
  hint: 'create or update one of your own jobs (POST /jobs with description_text)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    let jobs = 0;
    for (const r of traffic.requests) {
      if (r.endpoint !== 'jobs') continue;
      const text = record(r.json)?.description_text;
      if (typeof text !== 'string') continue;
      jobs += 1;
      const tags = [...text.matchAll(TAG)];
      const received = JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);
      const markup = tags.find((t) => evidentMarkup(t[0], t.index ?? 0, text));
      if (markup) {
        offences.push({
          message: `POST /jobs sent description_text with the HTML tag ${markup[0]}`,
          expected: 'plain text, HTML stripped by the partner',
          received,
          requests: [r.id],
        });
      } else if (tags.length === 0 && ENTITY.test(text)) {
        const entity = ENTITY.exec(text)![0];
        warnings.push({
          message: `POST /jobs sent description_text with the HTML character reference ${entity}`,
          reading: `HTML left undecoded, so the text shows ${entity} literally`,
          otherReading: 'the text means those characters',
          expected: 'plain text, HTML stripped by the partner (character references decoded)',
          received,
          requests: [r.id],
        });
      } else if (tags.length > 0) {
        warnings.push({
          message: `POST /jobs sent description_text with ${tags.map((t) => t[0]).join(', ')}`,
          reading: 'text, e.g. code or a job about HTML, which stripping HTML leaves in place',
          otherReading: 'markup left in the description',
          expected: 'plain text, HTML stripped by the partner',
          received,
          requests: [r.id],
        });
      }
    }
    return ruleVerdict(descriptionRule, ctx, {
      offences,
      warnings,
      exercised: jobs > 0,
      passMessage: `${jobs} job description(s), plain text`,
    });
  },
};
