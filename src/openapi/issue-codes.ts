// The codes inside rejected[] and warnings[] (RequirementIssue, JobIssue): open sets in the schemas ("new
// codes may be added"), so the description lists the known ones in text, from the spec's tables
// (Endpoints › POST /runs (start a run); Resources and their fields › JobIssue).

export interface IssueCode {
  code: string;
  condition: string;
}

export const REQUIREMENT_REJECTIONS: readonly IssueCode[] = [
  { code: 'empty_text', condition: 'text is empty or only whitespace' },
  {
    code: 'invalid_kind',
    condition: '`kind` is not `must` or `nice`; also when `requirements` is not an array (index -1)',
  },
  {
    code: 'too_many_musts',
    condition:
      "more than 3 `must` requirements (the job title counts as one on runs of the partner's own job); the issue is on the one that exceeds the cap",
  },
  {
    code: 'duplicate',
    condition:
      'same text as an earlier one after trimming, whitespace collapsing and case-folding, whatever the kind; the issue is on the later one',
  },
  { code: 'too_long', condition: 'text longer than 300 characters' },
  {
    code: 'location_as_requirement',
    condition: "the requirement is a place that is part of the job's `location_text`",
  },
];

export const REQUIREMENT_WARNINGS: readonly IssueCode[] = [
  { code: 'short_term_may_be_dropped', condition: 'a term shorter than 3 characters' },
  { code: 'years_band_ceiling', condition: 'a bounded years range that may act as a ceiling' },
  {
    code: 'unverifiable_must',
    condition:
      'a must that profiles rarely state (salary, availability, willingness, clearance, driving licence, soft traits)',
  },
];

export const JOB_ISSUES: readonly IssueCode[] = [
  { code: 'title_missing', condition: '`title` is missing' },
  { code: 'description_missing', condition: '`description_text` is missing' },
  { code: 'location_missing', condition: '`location_text` is missing' },
];

/** The known codes as a sentence: "`a` (when …), `b` (when …); new codes may be added". */
export function issueList(codes: readonly IssueCode[]): string {
  return `${codes.map((c) => `\`${c.code}\` (${c.condition})`).join(', ')}; new codes may be added`;
}
