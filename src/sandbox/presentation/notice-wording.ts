import type { EngineNotice } from '../engine/index.js';
import type { FaultSet } from '../faults/index.js';

type Params = Record<string, string | number>;
type Wording = (p: Params) => { title: string; body: string };

const n = (p: Params, key: string): string => String(p[key] ?? '?');
const reasonEn = (p: Params) =>
  p.reason === 'pool_exhausted'
    ? ' The candidate pool was exhausted.'
    : p.reason === 'ceiling_reached'
      ? ' The run reached its screening ceiling.'
      : '';
const reasonHe = (p: Params) =>
  p.reason === 'pool_exhausted'
    ? ' מאגר המועמדים מוצה.'
    : p.reason === 'ceiling_reached'
      ? ' החיפוש הגיע לתקרת הסינון.'
      : '';

const EN: Readonly<Record<string, Wording>> = {
  run_progress: (p) => ({
    title: 'Search in progress',
    body: `${n(p, 'confirmed')} of ${n(p, 'target')} candidates confirmed so far; ${n(p, 'screened')} profiles screened.`,
  }),
  run_funnel: (p) => ({
    title: 'Search summary',
    body: `${n(p, 'screened')} profiles screened, ${n(p, 'hidden')} hidden for an unmet must, ${n(p, 'confirmed')} of ${n(p, 'target')} candidates confirmed.${reasonEn(p)}`,
  }),
  function_error: () => ({
    title: 'The search could not be completed',
    body: 'Something went wrong on our side. Candidates already found remain valid; you can start a new search.',
  }),
  location_relaxed: (p) => ({
    title: 'Location widened',
    body: `Too few candidates were found in ${n(p, 'location')}, so candidates from nearby areas are included.`,
  }),
  must_unmet_hidden: (p) => ({
    title: 'Some candidates are hidden',
    body: `${n(p, 'count')} profiles were hidden because they clearly do not meet a must requirement.`,
  }),
  paid_fallback: () => ({
    title: 'From an extended source',
    body: 'This candidate comes from an extended source; revealing the contact may cost more.',
  }),
  already_shown: () => ({
    title: 'Shown before',
    body: 'This candidate already appeared in an earlier search for this job.',
  }),
  requirement_blockers: (p) => ({
    title: 'Requirement narrows the search',
    body: `"${n(p, 'requirement')}" excluded ${n(p, 'excluded')} profiles. Consider making it a nice-to-have.`,
  }),
  requirement_attribution: (p) => ({
    title: 'What drove the matches',
    body: `"${n(p, 'requirement')}" was met by ${n(p, 'met')} of the ${n(p, 'confirmed')} confirmed candidates.`,
  }),
  widen_hint: () => ({
    title: 'Consider widening the search',
    body: 'Relaxing a requirement may bring more candidates.',
  }),
  relaxation_ladder: () => ({
    title: 'Search relaxed step by step',
    body: 'Requirements were relaxed in stages to find candidates.',
  }),
  global_relaxed: () => ({ title: 'Search relaxed', body: 'The search was relaxed to find more candidates.' }),
  lean_search_failed: () => ({ title: 'Narrow search found nothing', body: 'The narrow search found no candidates.' }),
};

const HE: Readonly<Record<string, Wording>> = {
  run_progress: (p) => ({
    title: 'החיפוש בעיצומו',
    body: `אושרו עד כה ${n(p, 'confirmed')} מתוך ${n(p, 'target')} מועמדים; נסרקו ${n(p, 'screened')} פרופילים.`,
  }),
  run_funnel: (p) => ({
    title: 'סיכום החיפוש',
    body: `נסרקו ${n(p, 'screened')} פרופילים, ${n(p, 'hidden')} הוסתרו בשל דרישת חובה שלא התקיימה, אושרו ${n(p, 'confirmed')} מתוך ${n(p, 'target')} מועמדים.${reasonHe(p)}`,
  }),
  function_error: () => ({
    title: 'לא ניתן היה להשלים את החיפוש',
    body: 'אירעה תקלה אצלנו. מועמדים שכבר נמצאו נשארים תקפים; אפשר להתחיל חיפוש חדש.',
  }),
  location_relaxed: (p) => ({
    title: 'אזור החיפוש הורחב',
    body: `נמצאו מעט מדי מועמדים באזור ${n(p, 'location')}, ולכן נכללו מועמדים מאזורים סמוכים.`,
  }),
  must_unmet_hidden: (p) => ({
    title: 'חלק מהמועמדים הוסתרו',
    body: `${n(p, 'count')} פרופילים הוסתרו כי ברור שאינם עומדים בדרישת חובה.`,
  }),
  paid_fallback: () => ({ title: 'ממקור מורחב', body: 'המועמד מגיע ממקור מורחב; חשיפת פרטי הקשר עשויה לעלות יותר.' }),
  already_shown: () => ({ title: 'הוצג בעבר', body: 'המועמד כבר הופיע בחיפוש קודם למשרה זו.' }),
  requirement_blockers: (p) => ({
    title: 'דרישה שמצמצמת את החיפוש',
    body: `הדרישה "${n(p, 'requirement')}" סיננה ${n(p, 'excluded')} פרופילים. כדאי לשקול להפוך אותה לדרישת יתרון.`,
  }),
  requirement_attribution: (p) => ({
    title: 'מה הוביל להתאמות',
    body: `הדרישה "${n(p, 'requirement')}" התקיימה אצל ${n(p, 'met')} מתוך ${n(p, 'confirmed')} המועמדים שאושרו.`,
  }),
  widen_hint: () => ({ title: 'כדאי להרחיב את החיפוש', body: 'הקלה באחת הדרישות עשויה להביא מועמדים נוספים.' }),
  relaxation_ladder: () => ({ title: 'החיפוש הוקל בהדרגה', body: 'הדרישות הוקלו בשלבים כדי למצוא מועמדים.' }),
  global_relaxed: () => ({ title: 'החיפוש הוקל', body: 'החיפוש הוקל כדי למצוא מועמדים נוספים.' }),
  lean_search_failed: () => ({ title: 'החיפוש הממוקד לא העלה תוצאות', body: 'החיפוש הממוקד לא מצא מועמדים.' }),
};

/** A code this build does not know still gets a title and body, in the request language. */
function generic(code: string, lang: 'he' | 'en'): { title: string; body: string } {
  return lang === 'he'
    ? { title: 'הודעה מהשירות', body: `התקבלה הודעה מהשירות (קוד ${code}).` }
    : { title: 'Notice from the service', body: `The service reported a notice (code ${code}).` };
}

/** Title and body of a notice in the request language; `opts.faults` can make it ignore the language on purpose. */
export function renderNotice(
  notice: EngineNotice,
  lang: 'he' | 'en',
  { faults = new Set() }: { faults?: FaultSet } = {},
): { title: string; body: string } {
  // Changes nothing stored: the wording is chosen as a run is read, from notices stored without text.
  const effective = faults.has('runs-read.notice-language-ignored') ? 'en' : lang;
  const table = effective === 'he' ? HE : EN;
  const wording = Object.hasOwn(table, notice.code) ? table[notice.code] : undefined;
  return wording ? wording(notice.params ?? {}) : generic(notice.code, effective);
}
