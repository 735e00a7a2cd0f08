// The engine's contract with the sandbox app (sandbox-core). Re-exported by index.ts.

export interface EngineRequirement {
  index: number;
  text: string;
  kind: 'must' | 'nice';
  origin: string;
}

export interface EngineRunInput {
  runId: string;
  organizationId: string;
  job: { externalId: string; title: string; descriptionText: string; locationText: string };
  requirements: EngineRequirement[];
  targetCount: number;
  /** Date.now() at the start. */
  startedAt: number;
}

export interface EngineCandidate {
  id: bigint;
  name: string;
  title: string | null;
  company: string | null;
  location: string | null;
  verdict: 'strong' | 'good' | 'weak';
  requirements: Array<{
    index: number;
    text: string;
    kind: 'must' | 'nice';
    met: boolean | null;
    evidence: string | null;
  }>;
  /** Real (unmasked) contact, used by a production reveal. */
  email: string | null;
  phone: string | null;
  /** Computed from the price table at snapshot time. */
  priceCredits: number;
}

export interface EngineNotice {
  code: string;
  severity: string;
  slot: string;
  ref?: { requirement_index?: number; candidate_id?: bigint };
  /** Inputs to the wording (counts, place names…). */
  params?: Record<string, string | number>;
}

export interface EngineSnapshot {
  status: 'running' | 'completed' | 'failed';
  progress: { confirmed: number; target: number; screened: number };
  candidates: EngineCandidate[];
  notices: EngineNotice[];
}

export interface Engine {
  startRun(input: EngineRunInput): void;
  snapshot(runId: string, now?: number): EngineSnapshot | undefined;
  /** Called once per run when it reaches a terminal state, driven by a timer even if nobody reads. */
  onTerminal(listener: (runId: string, snapshot: EngineSnapshot) => void): void;
  /** Requirements derived from the job when a run start sends none. */
  deriveRequirements(job: {
    title: string;
    descriptionText: string;
    locationText: string;
  }): Array<{ text: string; kind: 'must' | 'nice' }>;
  close(): void;
}
