import type { FaultDefinition } from './types.js';

export const engineFaults: FaultDefinition[] = [];
