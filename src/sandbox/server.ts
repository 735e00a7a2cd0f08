// Placeholder until the sandbox lands; replaced wholesale by the sandbox implementation.
import type { RunningSandbox, SandboxOptions } from './index.js';
import type { FaultDefinition } from './faults/types.js';

export async function startSandbox(_opts: SandboxOptions = {}): Promise<RunningSandbox> {
  throw new Error('sandbox not implemented yet');
}

export function listFaults(): FaultDefinition[] {
  return [];
}
