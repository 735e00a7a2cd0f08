import { answer, ApiError, jsonBody, refuse, requireOrg, type Reply, type RequestContext } from '../context.js';
import { newUuid } from '../ids.js';
import { upsertStatus } from './upsert-status.js';
import { jobIssue, type JobIssue } from '../messages.js';

function present(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

/**
 * POST /jobs: an upsert by external_id within the organization; every field is required and a refusal
 * lists each missing one (`job_rejected`, nothing stored); a repeat replaces every field it was sent.
 */
export function jobsRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const body = jsonBody(rc);
  const { external_id: externalId, title, description_text: descriptionText, location_text: locationText } = body;
  const faults = rc.app.config.faults;
  const issues: JobIssue[] = [];
  if (!present(externalId)) issues.push(jobIssue('external_id', 'external_id_missing'));
  if (!present(title)) issues.push(jobIssue('title', 'title_missing'));
  if (!present(descriptionText)) issues.push(jobIssue('description_text', 'description_missing'));
  if (!present(locationText)) issues.push(jobIssue('location_text', 'location_missing'));
  const jobs = rc.app.store.jobsOf(org.id);
  if (issues.length > 0) {
    // Inline, as it changes state: the refused new job is stored ("nothing stored").
    if (faults.has('jobs.rejection-stores-job') && present(externalId) && !jobs.has(externalId)) {
      jobs.set(externalId, {
        jobId: newUuid(),
        externalId,
        title: typeof title === 'string' ? title : '',
        descriptionText: typeof descriptionText === 'string' ? descriptionText : '',
        locationText: typeof locationText === 'string' ? locationText : '',
      });
    }
    const known = present(externalId) ? jobs.get(externalId) : undefined;
    // Inline, as it changes state: a refused update writes the fields it did carry.
    if (known && faults.has('jobs.refused-update-applies-fields')) {
      if (present(title)) known.title = title;
      if (present(descriptionText)) known.descriptionText = descriptionText;
      if (present(locationText)) known.locationText = locationText;
    }
    // Variant jobs.rejected-first-only: a validator that stops at the first missing field.
    refuse(
      rc,
      { cause: 'job-rejected' },
      new ApiError(422, 'job_rejected', {
        rejected: rc.app.config.variants.has('jobs.rejected-first-only') ? issues.slice(0, 1) : issues,
      }),
    );
  }
  const ext = externalId as string;
  const fields = {
    title: title as string,
    descriptionText: descriptionText as string,
    locationText: locationText as string,
  };
  const existing =
    jobs.get(ext) ??
    // Inline, as it leaks across organizations: another organization's job of that external_id is overwritten.
    (faults.has('isolation.job-upsert-shared-across-orgs')
      ? [...rc.app.store.jobs.values()].map((m) => m.get(ext)).find((j) => j !== undefined)
      : undefined);
  let stored = existing;
  if (stored) {
    const replaced = { ...fields };
    // Inline, as they change what is stored: a repeat keeps the first location, title or description.
    if (faults.has('jobs.repeat-keeps-location')) replaced.locationText = stored.locationText;
    if (faults.has('jobs.repeat-keeps-title')) replaced.title = stored.title;
    if (faults.has('jobs.repeat-keeps-description')) replaced.descriptionText = stored.descriptionText;
    Object.assign(stored, replaced);
    // Inline, as it changes what is stored: a repeat gets a new job_id.
    if (faults.has('jobs.repeat-new-job-id')) stored.jobId = newUuid();
  } else {
    stored = { jobId: newUuid(), externalId: ext, ...fields };
    jobs.set(ext, stored);
  }
  return answer(
    rc,
    { status: upsertStatus(rc, !existing), body: { job_id: stored.jobId, created: !existing, updated: !!existing } },
    { created: !existing },
  );
}
