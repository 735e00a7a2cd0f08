// Validation of submitted requirements (spec: POST /runs, Requirement rules, rejection and warning codes).
import type { EngineRequirement } from './collaborators.js';
import { isRecord } from './json.js';
import { requirementIssue, type RequirementIssue, type RequirementIssueCode } from './messages.js';
import type { FaultSet } from './faults/index.js';

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
  faults: FaultSet;
}

/** Validates `requirements` as submitted (anything: it came straight from JSON). */
export function validateRequirements(input: unknown, opts: ValidateOptions): RequirementOutcome {
  const { faults } = opts;
  const idx = (i: number) => (faults.has('runs-start.issue-index-one-based') ? i + 1 : i);
  const rejected: RequirementIssue[] = [];
  const warnings: RequirementIssue[] = [];
  if (!Array.isArray(input)) {
    rejected.push(requirementIssue(faults.has('runs-start.not-array-index-zero') ? 0 : -1, 'invalid_kind'));
    return { rejected, warnings, requirements: [] };
  }
  const title = opts.jobTitle !== undefined ? normalizeText(opts.jobTitle) : undefined;
  const titleFolded = title !== undefined ? fold(title) : undefined;
  const places = opts.locationText ? locationParts(opts.locationText) : new Set<string>();
  const seen = new Set<string>();
  const requirements: EngineRequirement[] = [];
  const mustPositions: number[] = [];
  let titleSubmitted = false;
  input.forEach((item, i) => {
    const rawText = isRecord(item) ? item.text : undefined;
    const rawKind = isRecord(item) ? item.kind : undefined;
    const kind = faults.has('runs-start.invalid-kind-accepted') && rawKind !== 'must' ? 'nice' : rawKind;
    let issue: RequirementIssueCode | undefined;
    const text =
      typeof rawText === 'string'
        ? faults.has('runs-start.no-whitespace-collapse')
          ? rawText
          : normalizeText(rawText)
        : '';
    const canonical = typeof rawText === 'string' ? normalizeText(rawText) : '';
    const key = faults.has('runs-start.duplicate-case-sensitive') ? canonical : fold(canonical);
    const tooLongAt = faults.has('runs-start.too-long-at-300') ? MAX_TEXT : MAX_TEXT + 1;
    if (kind !== 'must' && kind !== 'nice') issue = 'invalid_kind';
    else if (canonical === '' && !(faults.has('runs-start.whitespace-text-accepted') && rawText !== ''))
      issue = 'empty_text';
    else if (length(canonical) >= tooLongAt) issue = 'too_long';
    else if (seen.has(key)) issue = 'duplicate';
    else if (isLocation(canonical, places) && !faults.has('runs-start.location-accepted'))
      issue = 'location_as_requirement';
    if (canonical !== '') seen.add(key);
    if (issue) {
      rejected.push(requirementIssue(idx(i), issue));
      return;
    }
    const k = kind as 'must' | 'nice';
    if (titleFolded !== undefined && fold(canonical) === titleFolded) titleSubmitted = true;
    if (k === 'must') mustPositions.push(i);
    requirements.push({
      index: i,
      text,
      kind: k,
      origin: faults.has('runs-start.origin-not-partner') ? 'submitted' : 'partner',
    });
    if (length(canonical) < 3 && !faults.has('runs-start.no-short-term-warning'))
      warnings.push(requirementIssue(idx(i), 'short_term_may_be_dropped'));
    const band = YEARS_BAND.exec(canonical) ?? BETWEEN_YEARS.exec(canonical);
    if (band && Number(band[2]) > Number(band[1]) && !faults.has('runs-start.no-years-band-warning'))
      warnings.push(requirementIssue(idx(i), 'years_band_ceiling'));
    if (
      k === 'must' &&
      UNVERIFIABLE.some((re) => re.test(canonical)) &&
      !faults.has('runs-start.no-unverifiable-warning')
    )
      warnings.push(requirementIssue(idx(i), 'unverifiable_must'));
  });
  const appendTitle = appendsTitle(title, titleSubmitted && !faults.has('runs-start.title-appended-twice'), faults);
  const cap = MAX_MUSTS - (appendTitle && !faults.has('runs-start.title-not-counted') ? 1 : 0);
  if (mustPositions.length > cap) {
    const over = faults.has('runs-start.too-many-musts-on-first')
      ? mustPositions.slice(0, 1)
      : mustPositions.slice(cap);
    for (const i of over) rejected.push(requirementIssue(idx(i), 'too_many_musts'));
    rejected.sort((a, b) => a.index - b.index);
  }
  if (faults.has('runs-start.drops-requirement')) {
    const lastNice = requirements.map((r) => r.kind).lastIndexOf('nice');
    if (lastNice >= 0) requirements.splice(lastNice, 1);
  }
  if (appendTitle) requirements.push({ index: input.length, text: title, kind: 'must', origin: 'job_title' });
  if (faults.has('runs-start.message-he-in-english'))
    for (const issue of [...rejected, ...warnings]) issue.message_he = issue.message_en;
  return { rejected, warnings, requirements };
}

/**
 * Whether the job title is appended as the last must, for submitted and derived requirements alike: not
 * when it is empty or already among them; the one point of the fault `runs-start.title-not-appended`.
 */
function appendsTitle(title: string | undefined, alreadyThere: boolean, faults: FaultSet): title is string {
  return title !== undefined && title !== '' && !alreadyThere && !faults.has('runs-start.title-not-appended');
}

/** Requirements of a run started without any: derived from the job, the title appended, musts capped. */
export function derivedRequirements(
  derived: Array<{ text: string; kind: 'must' | 'nice' }>,
  jobTitle: string,
  faults: FaultSet,
): EngineRequirement[] {
  const title = normalizeText(jobTitle);
  const seen = new Set<string>();
  const out: EngineRequirement[] = [];
  const hasTitle = derived.some((d) => fold(d.text) === fold(title));
  const appendTitle = appendsTitle(title, hasTitle, faults);
  let musts = appendTitle ? 1 : 0;
  for (const d of derived) {
    const text = normalizeText(d.text);
    const key = fold(text);
    if (text === '' || seen.has(key) || length(text) > MAX_TEXT) continue;
    seen.add(key);
    let kind = d.kind;
    if (kind === 'must' && musts >= MAX_MUSTS) kind = 'nice';
    if (kind === 'must') musts++;
    out.push({
      index: out.length,
      text,
      kind,
      origin: faults.has('runs-start.derived-requirements-origin-partner') ? 'partner' : 'derived',
    });
  }
  if (appendTitle) out.push({ index: out.length, text: title, kind: 'must', origin: 'job_title' });
  return out;
}
