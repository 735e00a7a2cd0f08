// The values a decision item may carry (DecisionItem): a leaf, read by the route and by the faults that
// bend its rules.
export const DECISIONS = ['shortlisted', 'rejected', 'contacted', 'interviewing', 'hired'];
export const REJECT_REASONS = [
  'cv_irrelevant',
  'overqualified',
  'location',
  'insufficient_experience',
  'declined',
  'candidate_withdrew',
  'known',
];
