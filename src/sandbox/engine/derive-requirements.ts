import { KNOWN_TERMS } from './matching.js';

const YEARS = /(\d{1,2})\s*\+?\s*(?:years?|yrs)/i;
const YEARS_HE = /(\d{1,2})\s*\+?\s*(?:שנות|שנים)/;

/**
 * Requirements read from the job when a run start sends none: a stated years-of-experience minimum and the
 * first known skill become musts (at most two, so the job title the caller adds keeps the count within 3),
 * further skills become nice-to-haves. Places are never derived (they would be `location_as_requirement`).
 */
export function deriveRequirements(job: {
  title: string;
  descriptionText: string;
  locationText: string;
}): Array<{ text: string; kind: 'must' | 'nice' }> {
  const text = job.descriptionText;
  const out: Array<{ text: string; kind: 'must' | 'nice' }> = [];
  const years = YEARS.exec(text) ?? YEARS_HE.exec(text);
  if (years) out.push({ text: `${years[1]}+ years of experience`, kind: 'must' });

  const lower = text.toLowerCase();
  const found = KNOWN_TERMS.map((term) => ({ term, at: lower.indexOf(term.toLowerCase()) }))
    .filter((f) => f.at >= 0)
    // A shorter term inside a longer found one (`Java` in `JavaScript`) is not a requirement of its own.
    .filter(
      (f, _, all) =>
        !all.some(
          (o) =>
            o.term !== f.term &&
            o.term.toLowerCase().includes(f.term.toLowerCase()) &&
            o.at <= f.at &&
            f.at < o.at + o.term.length,
        ),
    )
    .sort((a, b) => a.at - b.at)
    .map((f) => f.term);
  const location = job.locationText.toLowerCase();
  for (const term of found.filter((t) => !location.includes(t.toLowerCase())).slice(0, 4)) {
    const kind = out.filter((r) => r.kind === 'must').length < 2 ? 'must' : 'nice';
    out.push({ text: kind === 'must' ? `Experience with ${term}` : `${term} is an advantage`, kind });
  }
  return out;
}
