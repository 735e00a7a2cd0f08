export { renderNotice, WORDED_CODES } from './notice-wording.js';
export {
  EMAIL_HIDDEN,
  LINK_HIDDEN,
  maskCandidate,
  maskContactText,
  PHONE_HIDDEN,
  pseudonym,
  replaceName,
  SANDBOX_EMAIL_DOMAIN,
  sandboxContact,
} from './masking.js';
