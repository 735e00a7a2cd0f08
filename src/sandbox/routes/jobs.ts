import { ApiError, jsonBody, requireOrg, type Reply, type RequestContext } from '../context.js';
import { newUuid } from '../ids.js';
import { upsertStatus } from './upsert-status.js';
import { jobIssue, type JobIssue } from '../messages.js';
import type { JsonRecord } from '../json.js';

function present(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

/** The fault explore.job-text-number-stored: a loose reader that takes a number for text, as its digits. */
function looseText(body: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...body };
  for (const k of ['title', 'description_text', 'location_text']) {
    const v = out[k];
    if (typeof v === 'number') out[k] = String(v);
  }
  return out;
}

export function jobsRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const parsed = jsonBody(rc);
  const body = rc.app.config.faults.has('explore.job-text-number-stored') ? looseText(parsed) : parsed;
  const { external_id: externalId, title, description_text: descriptionText, location_text: locationText } = body;
  const faults = rc.app.config.faults;
  const issues: JobIssue[] = [];
  if (!present(externalId)) issues.push(jobIssue('external_id', 'external_id_missing'));
  if (!present(title) && !faults.has('jobs.title-not-required')) issues.push(jobIssue('title', 'title_missing'));
  if (!present(descriptionText)) issues.push(jobIssue('description_text', 'description_missing'));
  if (!present(locationText))
    issues.push(
      jobIssue(faults.has('jobs.location-issue-field-wrong') ? 'location' : 'location_text', 'location_missing'),
    );
  const jobs = rc.app.store.jobsOf(org.id);
  if (issues.length > 0) {
    if (faults.has('jobs.rejection-stores-job') && present(externalId) && !jobs.has(externalId)) {
      jobs.set(externalId, {
        jobId: newUuid(),
        externalId,
        title: typeof title === 'string' ? title : '',
        descriptionText: typeof descriptionText === 'string' ? descriptionText : '',
        locationText: typeof locationText === 'string' ? locationText : '',
      });
    }
    // The fault: a refused update writes the fields it did carry before refusing ("nothing stored").
    const known = present(externalId) ? jobs.get(externalId) : undefined;
    if (known && faults.has('jobs.refused-update-applies-fields')) {
      if (present(title)) known.title = title;
      if (present(descriptionText)) known.descriptionText = descriptionText;
      if (present(locationText)) known.locationText = locationText;
    }
    if (faults.has('jobs.issue-message-he-missing'))
      for (const issue of issues) Reflect.deleteProperty(issue, 'message_he');
    // The fault: a loop that keeps the first issue's field for every issue after it.
    const [first] = issues;
    if (first && faults.has('jobs.issues-share-first-field')) for (const issue of issues) issue.field = first.field;
    // Variant jobs.rejected-first-only: a validator that stops at the first missing field.
    throw new ApiError(422, 'job_rejected', {
      rejected: rc.app.config.variants.has('jobs.rejected-first-only') ? issues.slice(0, 1) : issues,
    });
  }
  const ext = externalId as string;
  const fields = {
    title: title as string,
    descriptionText: descriptionText as string,
    locationText: locationText as string,
  };
  // The fault isolation.job-upsert-shared-across-orgs: an external_id the organization never used finds
  // (and overwrites) another organization's job of that external_id.
  const existing =
    jobs.get(ext) ??
    (faults.has('isolation.job-upsert-shared-across-orgs')
      ? [...rc.app.store.jobs.values()].map((m) => m.get(ext)).find((j) => j !== undefined)
      : undefined);
  let stored = existing;
  if (stored) {
    // The fault keeps the first location (or title): a repeat that does not replace every field it was sent.
    Object.assign(
      stored,
      faults.has('jobs.repeat-keeps-location')
        ? { ...fields, locationText: stored.locationText }
        : faults.has('jobs.repeat-keeps-title')
          ? { ...fields, title: stored.title }
          : fields,
    );
    if (faults.has('jobs.repeat-new-job-id')) stored.jobId = newUuid();
  } else {
    stored = { jobId: newUuid(), externalId: ext, ...fields };
    jobs.set(ext, stored);
  }
  return {
    status: upsertStatus(rc, !existing),
    body: {
      job_id: stored.jobId,
      created: !existing && !faults.has('jobs.new-job-created-false'),
      updated: !!existing && !faults.has('jobs.repeat-updated-false'),
    },
  };
}
