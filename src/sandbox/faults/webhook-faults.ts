import type { FaultDefinition } from './types.js';

export const webhookFaults: FaultDefinition[] = [];
