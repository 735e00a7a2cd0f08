export type { WebhookAttempt, WebhookEnvelope, WebhookQueue, WebhookQueueOptions } from './types.js';
export { createWebhookQueue } from './queue.js';
export { checkWebhookUrl, type UrlVerdict } from './url-policy.js';
export { signBody } from './signing.js';
export { serializeBody } from './json-body.js';
export { ACK_TIMEOUT_MS, MAX_ATTEMPTS, RETENTION_MS, RETRY_DELAYS_MS } from './schedule.js';
