import type { Profile } from './pool.js';
import { FAMILIES, LANGUAGES } from './vocabulary.js';
import { isOneOf } from '../must.js';

export interface MatchRequirement {
  index: number;
  text: string;
  kind: 'must' | 'nice';
}

export interface RequirementResult {
  index: number;
  text: string;
  kind: 'must' | 'nice';
  met: boolean | null;
  evidence: string | null;
}

export type Verdict = 'strong' | 'good' | 'weak';

export interface Match {
  results: RequirementResult[];
  verdict: Verdict;
  /** A must the profile clearly fails: the candidate is hidden (`must_unmet_hidden`). */
  failsMust: boolean;
  score: number;
}

/** Every phrase a profile can hold, longest first so `Node.js` wins over `Node`. */
export const KNOWN_TERMS: readonly string[] = [
  ...new Set([...Object.values(FAMILIES).flatMap((f) => f.skills), ...LANGUAGES]),
].sort((a, b) => b.length - a.length);

/** Musts that profiles rarely state (the spec's `unverifiable_must` list): never decidable from a profile. */
const UNVERIFIABLE =
  /salary|availab|willing|relocat|clearance|driving|driver'?s licen|licence|team player|communicat|motivat|passion|שכר|זמינ|רישיון|נכונות/i;
const YEARS = /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*)?(?:years?|yrs|שנות|שנים)/i;
const STOPWORDS = new Set([
  'with',
  'and',
  'the',
  'for',
  'of',
  'in',
  'a',
  'an',
  'to',
  'or',
  'on',
  'at',
  'experience',
  'knowledge',
  'strong',
  'good',
  'solid',
  'proven',
  'skills',
  'skill',
  'hands',
  'working',
  'years',
  'year',
  'plus',
  'background',
  'ability',
  'ניסיון',
  'עם',
  'של',
  'או',
  'ידע',
  'היכרות',
]);

function containsTerm(haystack: string, term: string): boolean {
  const escaped = term.toLowerCase().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(haystack);
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter((t) => t.length >= 2 && !STOPWORDS.has(t) && !/^\d+$/.test(t));
}

/** The sentence of the summary that mentions `term`, quoted as evidence (it may carry contact details). */
function quote(profile: Profile, term: string): string {
  const sentence = profile.summary.split(/(?<=\.)\s+/).find((s) => containsTerm(s, term));
  return sentence ? `"${sentence.trim()}"` : `${profile.name}'s profile mentions ${term}.`;
}

function profileText(p: Profile): string {
  return [p.title, p.skills.join(' '), p.languages.join(' '), p.degree ?? '', p.summary].join(' ').toLowerCase();
}

export function evaluateRequirement(profile: Profile, req: MatchRequirement): RequirementResult {
  const base = { index: req.index, text: req.text, kind: req.kind };
  if (UNVERIFIABLE.test(req.text)) return { ...base, met: null, evidence: null };

  const years = YEARS.exec(req.text);
  if (years) {
    const wanted = Number(years[1]);
    const met = profile.years >= wanted;
    return {
      ...base,
      met,
      evidence: `${profile.name} has ${profile.years} years of experience, most recently as ${profile.title}${profile.company ? ` at ${profile.company}` : ''}.`,
    };
  }

  const lower = req.text.toLowerCase();
  const terms = KNOWN_TERMS.filter((t) => containsTerm(lower, t));
  if (terms.length > 0) {
    const isLanguage = terms.every((t) => isOneOf(LANGUAGES, t));
    if (profile.skills.length === 0 && !isLanguage) {
      return {
        ...base,
        met: null,
        evidence: `${profile.name}'s profile lists no skills to judge ${terms.join(', ')} by.`,
      };
    }
    const text = profileText(profile);
    const found = terms.filter((t) => containsTerm(text, t));
    const anyOf = /\bor\b|\bאו\b|\//i.test(req.text);
    const met = anyOf ? found.length > 0 : found.length === terms.length;
    if (met) return { ...base, met, evidence: quote(profile, found[0]!) };
    const missing = terms.filter((t) => !found.includes(t));
    return { ...base, met, evidence: `No mention of ${missing.join(', ')} in ${profile.name}'s profile.` };
  }

  const words = tokens(req.text);
  if (words.length === 0) return { ...base, met: null, evidence: null };
  const text = profileText(profile);
  const hits = words.filter((w) => text.includes(w));
  const met = hits.length * 2 >= words.length;
  return {
    ...base,
    met,
    evidence: met
      ? `${profile.name}: ${profile.title}${profile.company ? `, ${profile.company}` : ''}.`
      : `Nothing in ${profile.name}'s profile matches "${req.text}".`,
  };
}

export function matchProfile(profile: Profile, requirements: readonly MatchRequirement[]): Match {
  const results = requirements.map((r) => evaluateRequirement(profile, r));
  const musts = results.filter((r) => r.kind === 'must');
  const nices = results.filter((r) => r.kind === 'nice');
  const failsMust = musts.some((r) => r.met === false);
  const mustNull = musts.filter((r) => r.met === null).length;
  const niceMet = nices.filter((r) => r.met === true).length;
  const niceRatio = nices.length === 0 ? 1 : niceMet / nices.length;
  let verdict: Verdict;
  if (mustNull === 0 && niceRatio >= 0.5) verdict = 'strong';
  else if (mustNull >= 2 || (mustNull === 1 && niceRatio < 0.5)) verdict = 'weak';
  else verdict = 'good';
  const rank = { strong: 2, good: 1, weak: 0 }[verdict];
  const score =
    rank * 100 + musts.filter((r) => r.met === true).length * 10 + niceMet * 3 + Math.min(profile.years, 20) / 10;
  return { results, verdict, failsMust, score };
}
