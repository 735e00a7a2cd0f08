// Human wording of errors and issues. Clients branch on codes, never on these sentences.
export type Lang = 'he' | 'en';

interface Pair {
  he: string;
  en: string;
}

const ERRORS = {
  invalid_partner_key: { he: 'מפתח השותף חסר או אינו מוכר.', en: 'The partner key is missing or unknown.' },
  invalid_org_token: {
    he: 'אסימון הארגון חסר או אינו מוכר. יש לחבר את הארגון מחדש.',
    en: 'The organization token is missing or unknown. Reconnect the organization.',
  },
  partner_disabled: { he: 'חשבון השותף מושבת.', en: 'The partner account is disabled.' },
  organization_disabled: { he: 'החיבור של הארגון מושהה.', en: 'The organization connection is paused.' },
  rate_limited: { he: 'חריגה ממכסת הבקשות. יש להמתין ולנסות שוב.', en: 'Too many requests. Wait and try again.' },
  rate_limit_unavailable: {
    he: 'לא ניתן היה לאמת את מכסת הבקשות; דבר לא בוצע.',
    en: 'The request quota could not be verified; nothing was executed.',
  },
  internal_error: { he: 'שגיאה פנימית בשירות.', en: 'Internal service error.' },
  insufficient_credits: { he: 'אין די קרדיטים בארנק הארגון.', en: 'The organization wallet has insufficient credits.' },
  code_not_found: { he: 'קוד ההפעלה לא נמצא.', en: 'The activation code was not found.' },
  code_already_redeemed: { he: 'קוד ההפעלה כבר מומש.', en: 'The activation code has already been redeemed.' },
  code_expired: { he: 'תוקף קוד ההפעלה פג.', en: 'The activation code has expired.' },
  external_id_taken: {
    he: 'המזהה החיצוני כבר משויך לארגון אחר.',
    en: 'The external id is already used by another organization.',
  },
  invalid_user: { he: 'פרטי המשתמש אינם תקינים.', en: 'The user is invalid.' },
  job_rejected: { he: 'המשרה נדחתה; דבר לא נשמר.', en: 'The job was rejected; nothing was stored.' },
  requirements_rejected: {
    he: 'הדרישות נדחו; הריצה לא התחילה.',
    en: 'The requirements were rejected; the run was not started.',
  },
  job_not_found: { he: 'המשרה לא נמצאה.', en: 'The job was not found.' },
  user_not_found: { he: 'המשתמש הפועל אינו רשום.', en: 'The acting user is not registered.' },
  run_not_found: { he: 'הריצה לא נמצאה.', en: 'The run was not found.' },
  candidate_not_in_run: { he: 'המועמד אינו מופיע בריצה.', en: 'The candidate is not listed in this run.' },
  unknown_reject_reason: { he: 'סיבת הדחייה אינה ברשימה המותרת.', en: 'The reject reason is not in the allowed list.' },
  invalid_decision: { he: 'ההחלטה אינה תקינה; דבר לא נשמר.', en: 'The decision is invalid; nothing was stored.' },
  sandbox_limit: {
    he: 'בסביבת הבדיקה מספר המועמדים המבוקש הוא לכל היותר 20.',
    en: 'In the sandbox target_count is at most 20.',
  },
  sandbox_run_quota: {
    he: 'הארגון הגיע למכסת הריצות היומית בסביבת הבדיקה.',
    en: 'The organization reached its daily sandbox run quota.',
  },
  unknown_fixture: { he: 'אין תרחיש בדיקה בשם הזה.', en: 'There is no fixture with this name.' },
  webhook_not_configured: { he: 'לא הוגדרה כתובת וובהוק לשותף.', en: 'No webhook is configured for the partner.' },
  invalid_request: { he: 'הבקשה אינה תקינה.', en: 'The request is invalid.' },
  invalid_json: { he: 'גוף הבקשה אינו JSON תקין.', en: 'The request body is not valid JSON.' },
  unsupported_media_type: {
    he: 'סוג התוכן חייב להיות application/json.',
    en: 'The content type must be application/json.',
  },
  payload_too_large: { he: 'גוף הבקשה גדול מדי.', en: 'The request body is too large.' },
  not_found: { he: 'הנתיב לא נמצא.', en: 'No such route.' },
  forbidden: { he: 'הארגון אינו מחובר לשותף זה.', en: 'The organization is not connected to this partner.' },
  method_not_allowed: { he: 'שיטת הבקשה אינה נתמכת בנתיב זה.', en: 'This method is not allowed on this route.' },
} satisfies Record<string, Pair>;
/** The same table, looked up by any code a route passes. */
const ERROR_BY_CODE: Readonly<Record<string, Pair | undefined>> = ERRORS;

export function errorMessage(code: string, lang: Lang): string {
  const pair = ERROR_BY_CODE[code] ?? ERRORS.invalid_request;
  return pair[lang];
}

interface IssueWording {
  message: Pair;
  suggestion: Pair | null;
}

const REQUIREMENT_ISSUES = {
  empty_text: {
    message: { he: 'הדרישה ריקה.', en: 'The requirement is empty.' },
    suggestion: { he: 'כתבו את הדרישה או הסירו אותה.', en: 'Write the requirement or remove it.' },
  },
  invalid_kind: {
    message: { he: 'סוג הדרישה חייב להיות must או nice.', en: 'The requirement kind must be must or nice.' },
    suggestion: {
      he: 'שלחו רשימה של דרישות, כל אחת עם kind של must או nice.',
      en: 'Send a list of requirements, each with kind must or nice.',
    },
  },
  too_many_musts: {
    message: {
      he: 'יותר משלוש דרישות חובה (כותרת המשרה נספרת כאחת).',
      en: 'More than three must requirements (the job title counts as one).',
    },
    suggestion: { he: 'הפכו את הדרישה הזו ל-nice.', en: 'Make this requirement nice instead.' },
  },
  duplicate: {
    message: { he: 'הדרישה זהה לדרישה קודמת.', en: 'The requirement repeats an earlier one.' },
    suggestion: { he: 'הסירו את הכפילות.', en: 'Remove the duplicate.' },
  },
  too_long: {
    message: { he: 'הדרישה ארוכה מ-300 תווים.', en: 'The requirement is longer than 300 characters.' },
    suggestion: { he: 'קצרו את הדרישה.', en: 'Shorten the requirement.' },
  },
  location_as_requirement: {
    message: {
      he: 'הדרישה היא מקום שכבר מופיע במיקום המשרה.',
      en: 'The requirement is a place already in the job location.',
    },
    suggestion: {
      he: 'המיקום נלקח ממיקום המשרה; הסירו את הדרישה.',
      en: 'Location comes from the job location; remove this requirement.',
    },
  },
  short_term_may_be_dropped: {
    message: {
      he: 'מונח קצר מ-3 תווים עלול להישמט בחיפוש.',
      en: 'A term shorter than 3 characters may be dropped from the search.',
    },
    suggestion: { he: 'כתבו את המונח במלואו.', en: 'Spell the term out.' },
  },
  years_band_ceiling: {
    message: {
      he: 'טווח שנים סגור עלול לפסול מועמדים מנוסים יותר.',
      en: 'A bounded years range may exclude more experienced candidates.',
    },
    suggestion: { he: 'כתבו מינימום בלבד, למשל "3+ שנים".', en: 'State a minimum only, such as "3+ years".' },
  },
  unverifiable_must: {
    message: { he: 'דרישת חובה שרוב הפרופילים אינם מציינים.', en: 'A must requirement that profiles rarely state.' },
    suggestion: { he: 'סמנו אותה כ-nice או ביררו אותה בראיון.', en: 'Mark it nice or check it at interview.' },
  },
} satisfies Record<string, IssueWording>;

export type RequirementIssueCode = keyof typeof REQUIREMENT_ISSUES;

export interface RequirementIssue {
  index: number;
  code: string;
  message_he: string;
  message_en: string;
  suggestion_he: string | null;
  suggestion_en: string | null;
}

export function requirementIssue(index: number, code: RequirementIssueCode): RequirementIssue {
  const w = REQUIREMENT_ISSUES[code];
  return {
    index,
    code,
    message_he: w.message.he,
    message_en: w.message.en,
    suggestion_he: w.suggestion ? w.suggestion.he : null,
    suggestion_en: w.suggestion ? w.suggestion.en : null,
  };
}

const JOB_ISSUES = {
  title_missing: { he: 'כותרת המשרה חסרה.', en: 'The job title is missing.' },
  description_missing: { he: 'תיאור המשרה חסר.', en: 'The job description is missing.' },
  location_missing: { he: 'מיקום המשרה חסר.', en: 'The job location is missing.' },
  external_id_missing: { he: 'המזהה החיצוני של המשרה חסר.', en: 'The job external id is missing.' },
} satisfies Record<string, Pair>;

export interface JobIssue {
  field: string;
  code: string;
  message_he: string;
  message_en: string;
}

export function jobIssue(field: string, code: keyof typeof JOB_ISSUES): JobIssue {
  const w = JOB_ISSUES[code];
  return { field, code, message_he: w.he, message_en: w.en };
}
