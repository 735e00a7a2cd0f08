// Validation of submitted requirements (spec: POST /runs, Requirement rules, rejection and warning codes).
import type { EngineRequirement } from './collaborators.js';
import { isRecord } from './json.js';
import { requirementIssue, type RequirementIssue, type RequirementIssueCode } from './messages.js';
import type { RequirementRules } from './faults/requirement-rules.js';

const MAX_MUSTS = 3;
const MAX_TEXT = 300;

export interface RequirementOutcome {
  rejected: RequirementIssue[];
  warnings: RequirementIssue[];
  /** The run's requirements (title appended where due); meaningful only when nothing is rejected. */
  requirements: EngineRequirement[];
}

function normalizeText(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}

function fold(text: string): string {
  return normalizeText(text).normalize('NFC').toLocaleLowerCase('und');
}

function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const YEARS_BAND = /\b(\d{1,2})\s*(?:-|–|—|to|עד)\s*(\d{1,2})\s*(?:\+\s*)?(?:years?|yrs?|שנים|שנות)/iu;
const BETWEEN_YEARS = /(?:between|בין)\s*(\d{1,2})\s*(?:and|ל-?|ו-?)\s*(\d{1,2})\s*(?:years?|yrs?|שנים|שנות)/iu;
const UNVERIFIABLE = [
  /salary/i,
  /compensation/i,
  /availab/i,
  /immediate start/i,
  /willing/i,
  /clearance/i,
  /driv(?:ing|er'?s?) licen[cs]e/i,
  /team player/i,
  /motivated/i,
  /communication skills/i,
  /passionate/i,
  /hard[- ]working/i,
  /positive attitude/i,
  /שכר/u,
  /זמינות/u,
  /זמין/u,
  /נכונות/u,
  /סיווג ביטחוני/u,
  /רישיון נהיגה/u,
  /יחסי אנוש/u,
  /ראש גדול/u,
  /מוטיבציה/u,
];

function locationParts(locationText: string): Set<string> {
  const parts = new Set<string>();
  const whole = fold(locationText);
  if (whole) parts.add(whole);
  for (const segment of locationText.split(/[,;/|()]+|\s[-–—]\s/u)) {
    const words = fold(segment).split(' ').filter(Boolean);
    // Every run of consecutive words of a segment is a place that is "part of" the location.
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j <= words.length; j++) parts.add(words.slice(i, j).join(' '));
    }
  }
  return parts;
}

function isLocation(text: string, parts: Set<string>): boolean {
  const t = fold(text).replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
  return t.length >= 2 && parts.has(t);
}

export interface ValidateOptions {
  /** Title of the partner's own job, appended as the last must unless submitted; undefined on fixtures. */
  jobTitle: string | undefined;
  locationText: string | undefined;
  /** The rules applied: the spec's, or as a fault at the `requirementRules` point changed one. */
  rules: RequirementRules;
}

/** What one submitted item is, once its text is read: its issue, or the requirement and its warnings. */
interface ItemJudgement {
  issue?: RequirementIssueCode;
  kind?: 'must' | 'nice';
  /** The text as kept, and as compared (trimmed, whitespace collapsed). */
  text: string;
  canonical: string;
}

/** The list as judged so far: the places of the job's location and the texts already seen. */
interface Judging {
  rules: RequirementRules;
  places: Set<string>;
  seen: Set<string>;
}

function judgeItem(item: unknown, at: Judging): ItemJudgement {
  const { rules } = at;
  const rawText = isRecord(item) ? item.text : undefined;
  const rawKind = isRecord(item) ? item.kind : undefined;
  const kind = !rules.kindChecked && rawKind !== 'must' ? 'nice' : rawKind;
  const canonical = typeof rawText === 'string' ? normalizeText(rawText) : '';
  const text = typeof rawText === 'string' && !rules.collapseWhitespace ? rawText : canonical;
  const key = rules.duplicatesFolded ? fold(canonical) : canonical;
  let issue: RequirementIssueCode | undefined;
  if (kind !== 'must' && kind !== 'nice') issue = 'invalid_kind';
  else if (canonical === '' && (rules.blankIsEmpty || rawText === '')) issue = 'empty_text';
  else if (length(canonical) >= rules.tooLongAt) issue = 'too_long';
  else if (at.seen.has(key)) issue = 'duplicate';
  else if (rules.locationRefused && isLocation(canonical, at.places)) issue = 'location_as_requirement';
  if (canonical !== '') at.seen.add(key);
  return issue ? { issue, text, canonical } : { kind: kind as 'must' | 'nice', text, canonical };
}

/** The warnings an accepted requirement earns (spec: RequirementIssue warning codes). */
function warningsOf(kind: 'must' | 'nice', canonical: string, rules: RequirementRules): RequirementIssueCode[] {
  const out: RequirementIssueCode[] = [];
  if (length(canonical) < 3 && rules.shortTermWarning) out.push('short_term_may_be_dropped');
  const band = YEARS_BAND.exec(canonical) ?? BETWEEN_YEARS.exec(canonical);
  if (band && Number(band[2]) > Number(band[1]) && rules.yearsBandWarning) out.push('years_band_ceiling');
  if (kind === 'must' && UNVERIFIABLE.some((re) => re.test(canonical)) && rules.unverifiableWarning)
    out.push('unverifiable_must');
  return out;
}

/** The positions of the musts refused as `too_many_musts` when there are more than `cap`. */
function mustsOverCap(mustPositions: readonly number[], cap: number, rules: RequirementRules): readonly number[] {
  if (mustPositions.length <= cap) return [];
  return rules.tooManyMustsOn === 'first' ? mustPositions.slice(0, 1) : mustPositions.slice(cap);
}

/** Validates `requirements` as submitted (anything: it came straight from JSON). */
export function validateRequirements(input: unknown, opts: ValidateOptions): RequirementOutcome {
  const { rules } = opts;
  const idx = (i: number) => i + rules.firstIndex;
  const rejected: RequirementIssue[] = [];
  const warnings: RequirementIssue[] = [];
  if (!Array.isArray(input)) {
    rejected.push(requirementIssue(rules.notArrayIndex, 'invalid_kind'));
    return { rejected, warnings, requirements: [] };
  }
  const title = opts.jobTitle !== undefined ? normalizeText(opts.jobTitle) : undefined;
  const titleFolded = title !== undefined ? fold(title) : undefined;
  const places = opts.locationText ? locationParts(opts.locationText) : new Set<string>();
  const judging: Judging = { rules, places, seen: new Set() };
  const requirements: EngineRequirement[] = [];
  const mustPositions: number[] = [];
  let titleSubmitted = false;
  input.forEach((item, i) => {
    const judged = judgeItem(item, judging);
    if (judged.issue || !judged.kind) {
      rejected.push(requirementIssue(idx(i), judged.issue ?? 'invalid_kind'));
      return;
    }
    const { kind, text, canonical } = judged;
    if (titleFolded !== undefined && fold(canonical) === titleFolded) titleSubmitted = true;
    if (kind === 'must') mustPositions.push(i);
    requirements.push({ index: i, text, kind, origin: rules.submittedOrigin });
    for (const code of warningsOf(kind, canonical, rules)) warnings.push(requirementIssue(idx(i), code));
  });
  const appendTitle = appendsTitle(title, titleSubmitted && rules.submittedTitleRecognized, rules);
  const cap = MAX_MUSTS - (appendTitle && rules.titleCounted ? 1 : 0);
  const over = mustsOverCap(mustPositions, cap, rules);
  for (const i of over) rejected.push(requirementIssue(idx(i), 'too_many_musts'));
  if (over.length > 0) rejected.sort((a, b) => a.index - b.index);
  if (!rules.keepsEvery) {
    const lastNice = requirements.map((r) => r.kind).lastIndexOf('nice');
    if (lastNice >= 0) requirements.splice(lastNice, 1);
  }
  if (appendTitle) requirements.push({ index: input.length, text: title, kind: 'must', origin: 'job_title' });
  if (!rules.hebrewMessages) for (const issue of [...rejected, ...warnings]) issue.message_he = issue.message_en;
  return { rejected, warnings, requirements };
}

/**
 * Whether the job title is appended as the last must, for submitted and derived requirements alike: not
 * when it is empty or already among them.
 */
function appendsTitle(title: string | undefined, alreadyThere: boolean, rules: RequirementRules): title is string {
  return title !== undefined && title !== '' && !alreadyThere && rules.titleAppended;
}

/** Requirements of a run started without any: derived from the job, the title appended, musts capped. */
export function derivedRequirements(
  derived: Array<{ text: string; kind: 'must' | 'nice' }>,
  jobTitle: string,
  rules: RequirementRules,
): EngineRequirement[] {
  const title = normalizeText(jobTitle);
  const seen = new Set<string>();
  const out: EngineRequirement[] = [];
  const hasTitle = derived.some((d) => fold(d.text) === fold(title));
  const appendTitle = appendsTitle(title, hasTitle, rules);
  let musts = appendTitle ? 1 : 0;
  for (const d of derived) {
    const text = normalizeText(d.text);
    const key = fold(text);
    if (text === '' || seen.has(key) || length(text) > MAX_TEXT) continue;
    seen.add(key);
    let kind = d.kind;
    if (kind === 'must' && musts >= MAX_MUSTS) kind = 'nice';
    if (kind === 'must') musts++;
    out.push({ index: out.length, text, kind, origin: rules.derivedOrigin });
  }
  if (appendTitle) out.push({ index: out.length, text: title, kind: 'must', origin: 'job_title' });
  return out;
}
