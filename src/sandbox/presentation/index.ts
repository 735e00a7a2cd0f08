export { renderNotice } from './notice-wording.js';
export { maskCandidate, sandboxContact } from './masking.js';
