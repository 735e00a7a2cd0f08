export type { WebhookEnvelope, WebhookQueue } from './types.js';
export { createWebhookQueue } from './queue.js';
export { checkWebhookUrl } from './url-policy.js';
