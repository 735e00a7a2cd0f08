// The single seam to the modules sandbox-engine owns (engine, presentation, webhooks): everything else in
// the sandbox imports these names from here.
export type { Engine, EngineCandidate, EngineNotice, EngineRequirement, EngineSnapshot } from './engine/index.js';
export { createEngine } from './engine/index.js';
export { maskCandidate, renderNotice, sandboxContact } from './presentation/index.js';
export type { WebhookEnvelope, WebhookQueue } from './webhooks/index.js';
export { checkWebhookUrl, createWebhookQueue } from './webhooks/index.js';
