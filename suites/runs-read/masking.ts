// In the sandbox, candidates are masked: a stable pseudonym for a name, no e-mail, URL or phone number
// left in what a run read shows.

import type { JsonObject, JsonValue } from '../../src/json/lossless.js';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { objects } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import { eachRead, idKey, type Read, readAgain, realRun, where } from './real-runs.js';

/** How often, and how many times at most, the second real run is read for candidates in common. */
const SECOND_RUN_READS = 4;
const SECOND_RUN_READ_EVERY_SPEC_MS = 30_000;

// Conservative detectors: they must never flag masked text or ordinary prose (years, versions).
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/u;
const URL = /\b(?:https?:\/\/|www\.)[^\s"'<>]+/iu;
// A link typed without its scheme (linkedin.com/in/someone): a host under a common top-level domain
// written in lower case, then a path that reads like a link's. Stacks and names written with dots and
// slashes are prose: "ASP.NET/MVC" and "VB.NET/C#" (an upper-case .NET), "socket.io/redis" or
// "Node.js/React" (a path of plain words), "Booking.com" (no path), "@socket.io/redis-adapter" (a package).
const SCHEMELESS_URL =
  /(?<![\w@./-])(?:[A-Za-z0-9-]+\.)+(?:com|net|org|io|dev|co|il|me|app|ai|info)(?:\.[a-z]{2})?\/([^\s"'<>]*)/gu;
// A link's path: digits, hyphens and the like ("dana-levi-42", "watch?v=…"), or a profile prefix ("in/…").
const LINK_PATH = /[0-9_~%?=&@-]|^(?:in|pub|u|user|users|profile|company|p)\/[^/\s]/u;

/** The first link written without a scheme, if any; exported for unit tests of the detector. */
function findSchemelessLink(text: string): string | undefined {
  for (const m of text.matchAll(SCHEMELESS_URL)) if (LINK_PATH.test(m[1] ?? '')) return m[0];
  return undefined;
}

// Phones: a leading + with 9 or more digits, or a national grouping (3-3-4, 2-3-4, 3-7; the first group
// may be in parentheses) separated by -, . or a space. Runs of years ("2016 - 2018 2018 - 2023") and
// version numbers ("Node.js 18.0.1") are not phones, however many digits they hold.
const PHONE_INTERNATIONAL = /(?<![\w+])\+\d[\d\s().-]{7,}\d/gu;
const PHONE_NATIONAL =
  /(?<![\w.+-])(?:(?:\(\d{2,3}\)\s?|\d{2,3}[-. ])\d{3}[-. ]\d{4}|(?:\(\d{3}\)\s?|\d{3}[-. ])\d{7})(?![\d\p{L}_]|[-.]\d)/gu;
// A national number typed without separators: a trunk 0 and 8 or 9 more digits (0521234567, 031234567),
// alone; ids and other digit runs do not start with 0 or are longer.
const PHONE_UNSEPARATED = /(?<![\w+.-])0\d{8,9}(?![\w]|[-.]\d)/u;
const YEAR = /^(?:19|20)\d{2}$/u;
// x.y or x.y.z with short parts after the first ("18.0.1", "2024.1.15"); a dotted 555.010.1234 stays a phone.
const VERSION = /^\d+\.\d{1,3}(?:\.\d{1,3})?$/u;

/** True when every token of the match is a 4-digit year or a version number. */
function yearsOrVersions(match: string): boolean {
  const tokens = match
    .replace(/^\+/u, '')
    .split(/[\s()-]+/u)
    .filter((x) => x !== '');
  return tokens.length > 0 && tokens.every((x) => YEAR.test(x) || VERSION.test(x));
}

/** The first phone number in text, if any; exported for unit tests of the detector. */
export function findPhone(text: string): string | undefined {
  for (const m of text.matchAll(PHONE_INTERNATIONAL)) {
    const s = m[0];
    if ((s.match(/\d/gu)?.length ?? 0) >= 9 && !yearsOrVersions(s)) return s;
  }
  for (const m of text.matchAll(PHONE_NATIONAL)) if (!yearsOrVersions(m[0])) return m[0];
  return PHONE_UNSEPARATED.exec(text)?.[0];
}

/** The first e-mail, link or phone number left in text, if any; exported for unit tests of the detectors. */
export function exposedContact(text: string): string | undefined {
  return EMAIL.exec(text)?.[0] ?? URL.exec(text)?.[0] ?? findSchemelessLink(text) ?? findPhone(text);
}

/**
 * A check of the sandbox's masking (it belongs to the sandbox suite): it reads the shared real runs, so
 * it has their time budget.
 */
function maskingCheck(def: Omit<CheckDefinition, 'suite' | 'needs' | 'timeoutMs'>): CheckDefinition {
  return { ...def, suite: 'sandbox', needs: ['sandbox', 'org'], timeoutMs: REAL_RUN_BUDGET_MS };
}

export const MASKING_CHECKS: CheckDefinition[] = [
  maskingCheck({
    id: 'sandbox.pseudonym-stable-across-runs',
    title: 'In the sandbox a candidate listed by both real runs carries the same "Candidate XXXX" in both',
    // Which candidates a run finds is the engine's: nothing in the spec makes two runs share one (an
    // engine may search a slice of its pool per job, or never list a candidate twice), and no request
    // every conformant engine answers alike can make them. Within one run, the name's stability across
    // reads is sandbox.candidate-name-masked's.
    evidence: 'conditional',
    notApplicableWhen:
      "the two real runs listed no candidate in common (which candidates a run finds is the engine's choice): no pseudonym appears twice to compare",
    spec: [S.sandbox, S.candidate],
    async run(t) {
      if (t.inputs.realNamesEnabled === true) {
        t.skip(
          'real names are enabled for the partner (--real-names-enabled): there are no pseudonyms to compare',
          'not-applicable',
        );
        return;
      }
      // The second run is of a twin of the shared job (its own external_id: a service may never list a
      // candidate twice for one job) with the same requirements, so any ranking finds the same
      // candidates; it is read once the first has ended, by when it has listed what it will (they run
      // side by side). Every candidate the first run listed on any read counts.
      const [first, second] = await Promise.all([realRun(t), t.setup.secondRealRun()]);
      if (first.reads.length === 0) return;
      const names = new Map<string, JsonValue | undefined>();
      for (const r of first.reads)
        for (const c of objects(r.run.candidates)) {
          const id = idKey(c.id);
          if (id !== undefined) names.set(id, c.name);
        }
      // One read usually; a few more while the second run is still running and shares no candidate yet.
      let read: Read | undefined;
      let common: JsonObject[] = [];
      let readsOfSecond = 0;
      for (let n = 1; n <= SECOND_RUN_READS; n++) {
        readsOfSecond = n;
        read = await readAgain(t, second.runId, `read the short real run (#${n})`);
        if (!read) return;
        common = objects(read.run.candidates).filter((c) => names.has(idKey(c.id) ?? ''));
        if (
          common.length > 0 ||
          read.run.status === 'completed' ||
          read.run.status === 'failed' ||
          n === SECOND_RUN_READS
        )
          break;
        await t.sleep(SECOND_RUN_READ_EVERY_SPEC_MS);
      }
      if (!read) return;
      if (common.length === 0) {
        t.skip(
          `the shared real run and the second real run (a twin of its job, the same requirements, read ${readsOfSecond} time(s) until ${show(read.run.status)}) listed no candidate in common (${names.size} and ${objects(read.run.candidates).length} listed; which candidates a run finds is the engine's), so no pseudonym could be compared`,
          'not-applicable',
        );
        return;
      }
      for (const c of common) {
        const id = idKey(c.id)!;
        const before = names.get(id);
        if (
          !t.expect.that(
            c.name === before,
            {
              message: `candidate ${id} is named ${show(c.name)} in the second real run and ${show(before)} in the first; the sandbox's pseudonym is stable per candidate ("Candidate XXXX"), so a candidate listed by two runs carries the same one`,
              spec: S.sandbox,
              expected: show(before),
              received: show(c.name),
            },
            read.res,
          )
        )
          return;
      }
    },
  }),
  maskingCheck({
    id: 'sandbox.candidate-name-masked',
    title:
      'In the sandbox every real-run candidate is named "Candidate XXXX" (4 hex digits), the same on every read (unless --real-names-enabled)',
    evidence: 'provoked',
    spec: [S.sandbox, S.candidate],
    async run(t) {
      const v = await realRun(t);
      // "Real names: shown only after a data-processing agreement is signed and the service operator
      // enables it for the partner": only the operator knows, so the user says so (--real-names-enabled).
      // Names are then opaque strings; contact identifiers stay masked regardless
      // (sandbox.contact-identifiers-masked judges them either way).
      const realNames = t.inputs.realNamesEnabled === true;
      if (!v.reads.some((r) => objects(r.run.candidates).length > 0)) {
        t.skip('the shared real run listed no candidate on any read, so no name could be judged', 'inconclusive');
        return;
      }
      const names = new Map<string, string>();
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const id = idKey(c.id) ?? show(c.id);
          const ok = realNames
            ? t.expect.that(
                typeof c.name === 'string',
                {
                  message: `candidate ${id} on ${where(r)} has name ${show(c.name)}; the name is an opaque string (real names are enabled: --real-names-enabled)`,
                  spec: S.candidate,
                  expected: 'a string',
                  received: show(c.name),
                },
                r.res,
              )
            : t.expect.that(
                typeof c.name === 'string' && /^Candidate [0-9A-Fa-f]{4}$/.test(c.name),
                {
                  message: `candidate ${id} on ${where(r)} is named ${show(c.name)}; the sandbox masks names as "Candidate XXXX" with four hex digits, unless the operator enabled real names for the partner after a data-processing agreement (then certify with --real-names-enabled)`,
                  spec: S.sandbox,
                  expected: 'Candidate XXXX',
                  received: show(c.name),
                },
                r.res,
              );
          if (!ok) return false;
          if (realNames) continue;
          const before = names.get(id);
          if (
            before !== undefined &&
            !t.expect.equal(
              c.name,
              before,
              `name of candidate ${id} on ${where(r)} (earlier reads: ${before})`,
              S.sandbox,
              r.res,
            )
          )
            return false;
          names.set(id, c.name as string);
        }
        return true;
      });
    },
  }),
  maskingCheck({
    id: 'sandbox.evidence-pseudonym-is-the-name',
    title: "In the sandbox a pseudonym inside a candidate's evidence is that candidate's own masked name",
    evidence: 'conditional',
    notApplicableWhen: 'no candidate of the shared real run carries a masked name with evidence to compare it with',
    spec: [S.sandbox, S.candidateRequirement],
    async run(t) {
      const v = await realRun(t);
      // Only a masked name can be judged: the real one is not shown. Where evidence names the candidate,
      // the name and each part of it are replaced by the same pseudonym as the name field.
      const masked = (c: JsonObject): boolean =>
        typeof c.name === 'string' && /^Candidate [0-9A-Fa-f]{4}$/.test(c.name);
      if (!v.reads.some((r) => objects(r.run.candidates).some(masked))) {
        if (t.inputs.realNamesEnabled === true) {
          t.skip(
            'real names are enabled (--real-names-enabled) and no candidate of the shared real run carries a masked name, so there is no pseudonym to compare',
            'not-applicable',
          );
        } else {
          // An unmasked name is sandbox.candidate-name-masked's finding.
          t.skip(
            'no candidate of the shared real run carries a masked name "Candidate XXXX", so no pseudonym could be compared',
            'inconclusive',
          );
        }
        return;
      }
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          if (!masked(c)) continue; // sandbox.candidate-name-masked's finding
          const name = c.name as string;
          for (const q of objects(c.requirements)) {
            if (typeof q.evidence !== 'string') continue;
            const other = [...q.evidence.matchAll(/Candidate [0-9A-Fa-f]{4}(?![0-9A-Za-z])/g)]
              .map((m) => m[0])
              .find((m) => m !== name);
            const ok = t.expect.that(
              other === undefined,
              {
                message: `candidate ${idKey(c.id) ?? show(c.id)} (named ${name}) has evidence naming ${show(other)} on ${where(r)}: ${show(q.evidence.slice(0, 160))}; inside evidence the candidate's name and each part of it are replaced by the same pseudonym`,
                spec: S.sandbox,
                expected: name,
                received: other,
              },
              r.res,
            );
            if (!ok) return false;
          }
        }
        return true;
      });
    },
  }),
  maskingCheck({
    id: 'sandbox.contact-identifiers-masked',
    title: 'In the sandbox no e-mail, URL or phone number is left in evidence, title, company or location',
    evidence: 'provoked',
    spec: [S.sandbox],
    async run(t) {
      const v = await realRun(t);
      eachRead(v.reads, (r) => {
        // Each field judged as it is met: a list of every field's pointer first was three million
        // strings against a hostile read of a million candidates.
        const judge = (at: () => string, value: JsonValue | undefined): boolean => {
          if (typeof value !== 'string') return true;
          const found = exposedContact(value);
          return t.expect.that(
            found === undefined,
            {
              message: `${where(r)}: ${at()} still shows ${show(found)}; the sandbox replaces e-mails, URLs and phone numbers with [email|link|phone hidden in sandbox]`,
              spec: S.sandbox,
              expected: 'no contact identifier',
              received: value,
              pointer: at(),
            },
            r.res,
          );
        };
        for (const [ci, c] of objects(r.run.candidates).entries()) {
          for (const field of ['title', 'company', 'location'] as const)
            if (!judge(() => `/candidates/${ci}/${field}`, c[field])) return false;
          for (const [qi, q] of objects(c.requirements).entries())
            if (!judge(() => `/candidates/${ci}/requirements/${qi}/evidence`, q.evidence)) return false;
        }
        return true;
      });
    },
  }),
];
