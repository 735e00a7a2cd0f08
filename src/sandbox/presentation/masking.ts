import { createHash } from 'node:crypto';
import type { EngineCandidate } from '../engine/index.js';
import { SPEC_MASKING, type MaskingRules } from '../faults/masking-rules.js';
import { EMAIL_HIDDEN, LINK_HIDDEN, PHONE_HIDDEN } from './placeholders.js';

/** RFC 2606 reserves `.invalid`: mail to it can never be delivered to a real person. */
const SANDBOX_EMAIL_DOMAIN = 'sandbox.svc.invalid';

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
// Schemed links, www. links and bare host/path links such as linkedin.com/in/someone. A bare link has
// a lower-case top-level domain and a path holding more than words (a digit, a hyphen, a second
// segment, a query): "ASP.NET/MVC", "VB.NET/C#" and "socket.io/redis" are a profile's stack, not links.
const URL_PATTERN =
  /\b(?:[Hh][Tt][Tt][Pp][Ss]?:\/\/|[Ww][Ww][Ww]\.)[^\s"'<>)\]]+|\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[a-z]{2,}\/(?=[^\s"'<>)\]]*[0-9_~%?=&/-])[^\s"'<>)\]]*/gu;
/** Only links written with a scheme or www. (what the fault sandbox.schemeless-link-left still masks). */
const SCHEMED_URL = /\b(?:https?:\/\/|www\.)[^\s"'<>)\]]+/giu;
// A run of digits with the usual separators, at least 9 digits in all: years and year ranges stay untouched.
const PHONE_CANDIDATE = /\+?\(?\d[\d\s().-]{6,}\d/g;

/** `Candidate XXXX`: four upper-case hex digits of a hash of the id, so the same candidate always gets the same pseudonym. */
export function pseudonym(candidateId: bigint, salt = ''): string {
  const hex = createHash('sha256').update(`${salt}${candidateId.toString()}`).digest('hex').slice(0, 4).toUpperCase();
  return `Candidate ${hex}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces e-mails, links and phone numbers, in that order (an e-mail's domain must not be read as a link). */
function maskContactText(text: string, rules: MaskingRules): string {
  let out = rules.emails ? text.replace(EMAIL, EMAIL_HIDDEN) : text;
  out = out.replace(rules.links === 'every-form' ? URL_PATTERN : SCHEMED_URL, LINK_HIDDEN);
  out = out.replace(PHONE_CANDIDATE, (m) =>
    (m.match(/\d/g)?.length ?? 0) >= 9 && (rules.barePhones || !/^\d+$/.test(m)) ? PHONE_HIDDEN : m,
  );
  return out;
}

/** Replaces the full name, then each part of it (a first name alone, a surname alone), by the pseudonym. */
function replaceName(text: string, name: string, replacement: string): string {
  const parts = [name, ...name.split(/\s+/), ...name.split(/[\s-]+/)].filter((p) => p.trim().length >= 2);
  const unique = [...new Set(parts)].sort((a, b) => b.length - a.length);
  // E-mails and links are left whole: a name inside one is part of an identifier, not prose.
  const protectedParts = new RegExp(`(${EMAIL.source}|${URL_PATTERN.source})`, 'giu');
  return text
    .split(protectedParts)
    .map((segment, i) => {
      if (i % 2 === 1) return segment;
      let out = segment;
      for (const part of unique) {
        const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(part)}(?![\\p{L}\\p{N}])`, 'giu');
        out = out.replace(re, replacement);
      }
      return out;
    })
    .join('');
}

/** The contact a sandbox reveal returns: synthetic, stable, never a real person's. */
export function sandboxContact(candidateId: bigint): { email: string; phone: string } {
  const last4 = candidateId.toString().slice(-4).padStart(4, '0');
  // 555-01xx style numbers are reserved for fiction; the last four digits tie it to the candidate.
  return { email: `candidate-${candidateId}@${SANDBOX_EMAIL_DOMAIN}`, phone: `+1-555-010-${last4}` };
}

/**
 * The candidate as the sandbox shows it (spec: Sandbox behaviour): masked name, the name replaced inside
 * evidence, contact identifiers hidden in evidence, title, company and location, and the synthetic contact
 * in place of the real one. `opts.rules` says what is masked: the spec's masking unless a fault or a
 * variant changed it.
 */
export function maskCandidate(
  c: EngineCandidate,
  opts: { rules?: MaskingRules; runId?: string } = {},
): EngineCandidate {
  const rules = opts.rules ?? SPEC_MASKING;
  // Salted with the run, the pseudonym is stable within a run and different in the next one.
  const alias = rules.pseudonymStable ? pseudonym(c.id) : pseudonym(c.id, opts.runId ?? '');
  const keepName = !rules.names;
  const maskField = (v: string | null) => (v === null ? null : maskContactText(v, rules));
  const contact = sandboxContact(c.id);
  const maskEvidence = (text: string) => {
    const hidden = maskContactText(text, rules);
    return keepName ? hidden : replaceName(hidden, c.name, rules.evidenceOwnPseudonym ? alias : pseudonym(c.id + 1n));
  };
  return {
    ...c,
    name: keepName ? c.name : alias,
    title: maskField(c.title),
    company: maskField(c.company),
    location: maskField(c.location),
    requirements: c.requirements.map((r) => ({
      ...r,
      evidence: r.evidence === null ? null : maskEvidence(r.evidence),
    })),
    email: c.email === null ? null : contact.email,
    phone: c.phone === null ? null : contact.phone,
  };
}
