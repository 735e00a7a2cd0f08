// Creating jobs and refusing incomplete ones (Endpoints › POST /jobs, JobIssue). Refusals and answers act
// at their points; what changes a stored job is switched in routes/jobs.ts, what a run read shows of the
// job in run-view.ts (rederived-requirements.ts).
import { reword, edited } from './reshape.js';
import { ApiError } from '../api-error.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onRefusal } from './points.js';

/** The issues of a `job_rejected` refusal. */
function issuesOf(e: ApiError): JobIssue[] {
  const rejected = e.extra.rejected;
  return Array.isArray(rejected) ? rejected.filter(isJobIssue) : [];
}

function isJobIssue(v: unknown): v is JobIssue {
  return typeof v === 'object' && v !== null && 'field' in v && typeof v.field === 'string';
}

interface JobIssue {
  field: string;
  code: string;
  message_he?: string;
  message_en: string;
}

export const jobsFaults = [
  {
    id: 'jobs.rejection-stores-job',
    area: 'jobs',
    summary: 'a `422 job_rejected` still stores the job',
    caughtBy: 'jobs.rejection-stores-nothing',
    alsoCaughtBy: ['explore.jobs.refused-write-stored-nothing'],
  },
  {
    id: 'jobs.repeat-new-job-id',
    area: 'jobs',
    summary: 'a repeated job upsert returns a new `job_id`',
    caughtBy: 'jobs.upsert-repeat-same-job',
  },
  {
    id: 'jobs.repeat-keeps-location',
    area: 'jobs',
    summary: 'a repeated POST /jobs keeps the first `location_text` instead of replacing it',
    caughtBy: 'jobs.upsert-replaces-location',
  },
  {
    id: 'jobs.new-job-created-false',
    area: 'jobs',
    summary: 'the first creation of a job answers `created: false`',
    caughtBy: 'jobs.create-new-job',
    acts: {
      answer: onAnswer('jobs', (r) =>
        edited(r, (b) => {
          b.created = false;
        }),
      ),
    },
  },
  {
    id: 'jobs.repeat-updated-false',
    area: 'jobs',
    summary: 'a repeated job upsert answers `updated: false`',
    caughtBy: 'jobs.upsert-repeat-same-job',
    acts: {
      answer: onAnswer('jobs', (r) =>
        edited(r, (b) => {
          b.updated = false;
        }),
      ),
    },
  },
  {
    id: 'jobs.title-not-required',
    area: 'jobs',
    summary: 'a job without `title` is stored instead of refused with `title_missing`',
    caughtBy: 'jobs.rejects-missing-title',
    acts: {
      refusal: onRefusal('job-rejected', (e) => {
        if (!e) return e;
        const rejected = issuesOf(e).filter((i) => i.field !== 'title');
        return rejected.length === 0 ? undefined : reword(e, { extra: { rejected } });
      }),
    },
  },
  {
    id: 'jobs.issue-message-he-missing',
    area: 'jobs',
    summary: 'JobIssue entries of `422 job_rejected` lack `message_he`',
    caughtBy: 'jobs.rejects-missing-description',
    acts: {
      refusal: onRefusal('job-rejected', (e) =>
        e ? reword(e, { extra: { rejected: issuesOf(e).map(({ message_he: _he, ...i }) => i) } }) : e,
      ),
    },
  },
  {
    id: 'jobs.location-issue-field-wrong',
    area: 'jobs',
    summary: 'the `location_missing` issue names field `location` instead of the request field `location_text`',
    caughtBy: 'jobs.rejects-missing-location',
    acts: {
      refusal: onRefusal('job-rejected', (e) =>
        e
          ? reword(e, {
              extra: {
                rejected: issuesOf(e).map((i) => (i.field === 'location_text' ? { ...i, field: 'location' } : i)),
              },
            })
          : e,
      ),
    },
  },
  {
    id: 'jobs.issues-share-first-field',
    area: 'jobs',
    summary:
      'a job missing several fields is refused with one JobIssue each, but every issue names the first missing field in `field`',
    caughtBy: 'jobs.rejection-lists-every-missing-field',
    acts: {
      refusal: onRefusal('job-rejected', (e) => {
        if (!e) return e;
        const issues = issuesOf(e);
        const field = issues[0]?.field;
        return field === undefined ? e : reword(e, { extra: { rejected: issues.map((i) => ({ ...i, field })) } });
      }),
    },
  },
  {
    id: 'isolation.jobs-shared-across-orgs',
    area: 'jobs',
    summary:
      "a run start's job lookup ignores the organization: another organization's run on a job it never created (an external_id only the first created) starts on the first organization's job (202) instead of `404 job_not_found`",
    caughtBy: 'jobs.external-id-per-organization',
  },
  {
    id: 'isolation.job-upsert-shared-across-orgs',
    area: 'jobs',
    summary:
      "POST /jobs finds a job by external_id across organizations: another organization's upsert of the same external_id overwrites the first organization's job (its job_id answered, its title, description and location replaced)",
    caughtBy: 'jobs.external-id-per-organization',
  },
  {
    id: 'jobs.repeat-keeps-title',
    area: 'jobs',
    summary: 'a repeated POST /jobs keeps the first `title` (replacing description and location only)',
    caughtBy: 'jobs.upsert-replaces-title',
  },
  {
    id: 'jobs.refused-update-applies-fields',
    area: 'jobs',
    summary:
      'a refused update of an existing job (422 `job_rejected`) still stores the fields it carried (a new `location_text`) before answering',
    caughtBy: 'jobs.refused-update-keeps-job',
  },
  {
    id: 'jobs.repeat-keeps-description',
    area: 'jobs',
    summary:
      'a repeated POST /jobs keeps the first `description_text` (replacing title and location only): a run started afterwards without requirements derives them from the replaced description',
    caughtBy: 'jobs.upsert-replaces-description',
  },
  {
    id: 'jobs.run-rederives-current-description',
    area: 'jobs',
    summary:
      "a read of a real run started without requirements derives them again from the job's current description: after a repeat POST /jobs replaced it, the run's candidates list the new description's requirements, not those of its 202",
    caughtBy: 'jobs.run-keeps-started-description',
  },
] as const satisfies readonly FaultDefinition[];
