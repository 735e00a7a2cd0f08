// A job's description is plain text (Resources and their fields › Job: `description_text` "plain text,
// HTML stripped by the partner"): element tags fail; a lone `<` or `&` in prose is text.

import { P } from '../spec-refs.js';
import { settle, type Offence, type Rule } from './rule.js';

/**
 * HTML element names: a tag is `<name …>`, `</name>` or `<name/>` of one of these. A generic `<T>` or
 * `a < b` in prose is not markup, so only names HTML defines are taken for tags.
 */
const ELEMENTS =
  'a|abbr|b|blockquote|body|br|center|code|div|dd|dl|dt|em|font|h[1-6]|head|hr|html|i|img|li|ol|p|pre|s|section|small|span|strike|strong|style|sub|sup|table|tbody|td|th|thead|tr|u|ul|script|article|header|footer|nav|mark|label|button|input|form';
const TAG = new RegExp(`</?(?:${ELEMENTS})(?:\\s[^<>]*)?/?>`, 'i');

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export const descriptionRule: Rule = {
  id: 'requests.job-description-plain-text',
  title: 'A job description_text is plain text (HTML stripped)',
  suite: 'requests',
  spec: [P.job, P.jobs],
  hint: 'create or update one of your own jobs (POST /jobs with description_text)',
  judge(traffic, ctx) {
    const offences: Offence[] = [];
    let jobs = 0;
    for (const r of traffic.requests) {
      if (r.endpoint !== 'jobs') continue;
      const text = record(r.json)?.description_text;
      if (typeof text !== 'string') continue;
      jobs += 1;
      const tag = TAG.exec(text);
      if (tag) {
        offences.push({ message: `POST /jobs sent description_text with the HTML tag ${tag[0]}`, expected: 'plain text, HTML stripped by the partner', received: JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text), requests: [r.id] });
      }
    }
    return settle(descriptionRule, ctx, { offences, exercised: jobs > 0, passMessage: `${jobs} job description(s), plain text` });
  },
};
