// What the sandbox shows instead of a candidate's contact before a reveal (Sandbox behaviour).
export const EMAIL_HIDDEN = '[email hidden in sandbox]';
export const LINK_HIDDEN = '[link hidden in sandbox]';
export const PHONE_HIDDEN = '[phone hidden in sandbox]';
