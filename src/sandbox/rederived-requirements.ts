// The fault jobs.run-rederives-current-description: a read of a real run started without requirements
// lists each candidate's requirements as derived from the job's description as it is now, not as it was
// when the run started. A repeat POST /jobs that replaced the description then changes the requirements
// of a run already started, which the spec's POST /jobs forbids ("Runs already started keep the
// description they started with").
import type { EngineCandidate } from './collaborators.js';
import type { AppContext } from './context.js';
import { derivedRequirements } from './requirements.js';
import type { Run } from './store.js';

type CandidateRequirements = EngineCandidate['requirements'];

/**
 * The requirements a read of `run` lists under the fault: the job's current description derived again
 * (the title appended as at a start), each keeping the verdict the candidate had at that index.
 * Undefined when the fault is off or does not apply: a fixture run, a run with submitted requirements,
 * or a job no longer found.
 */
export function rederivedRequirements(app: AppContext, run: Run): CandidateRequirements | undefined {
  const faults = app.config.faults;
  // Reads the stored job as it is now instead of the requirements the run stored at its start.
  if (!faults.has('jobs.run-rederives-current-description') || run.fixture) return undefined;
  if (run.requirements.some((r) => r.origin === 'partner')) return undefined;
  const job = app.store.jobsOf(run.organizationId).get(run.jobExternalId);
  if (!job) return undefined;
  return derivedRequirements(app.engine.deriveRequirements(job), job.title, app.config.requirementRules).map((r) => ({
    index: r.index,
    text: r.text,
    kind: r.kind,
    met: null,
    evidence: null,
  }));
}

/** A candidate's requirements under the fault: the re-derived list, with its own verdicts where the index is kept. */
export function withRederived(own: CandidateRequirements, rederived: CandidateRequirements): CandidateRequirements {
  return rederived.map((r) => {
    const kept = own.find((o) => o.index === r.index);
    return { ...r, met: kept?.met ?? null, evidence: kept?.evidence ?? null };
  });
}
