import type { FaultDefinition } from './types.js';

export const apiFaults: FaultDefinition[] = [];
