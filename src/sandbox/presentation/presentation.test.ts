import { describe, expect, it } from 'vitest';
import type { EngineCandidate } from '../engine/index.js';
import { maskCandidate, pseudonym, sandboxContact } from './masking.js';
import { SPEC_MASKING } from '../faults/masking-rules.js';
import { renderNotice } from './notice-wording.js';
import { KNOWN_NOTICE_CODES as CODES } from '../notice-codes.js';

const HEBREW = /[\u05d0-\u05ea]/;
const PARAMS = {
  confirmed: 3,
  target: 10,
  screened: 120,
  hidden: 40,
  count: 40,
  location: 'Haifa',
  requirement: 'Python',
  excluded: 12,
  met: 2,
  reason: 'pool_exhausted',
};

describe('notice wording', () => {
  it.each(CODES)('words %s in Hebrew script and in English, with its parameters', (code) => {
    const he = renderNotice({ code, severity: 'info', slot: 'above_list', params: PARAMS }, 'he');
    const en = renderNotice({ code, severity: 'info', slot: 'above_list', params: PARAMS }, 'en');
    expect(he.title).toMatch(HEBREW);
    expect(he.body).toMatch(HEBREW);
    expect(en.title).not.toMatch(HEBREW);
    expect(en.title.length).toBeGreaterThan(3);
    expect(en.body.length).toBeGreaterThan(10);
    expect(en.title).not.toBe(renderNotice({ code: 'zz_unknown', severity: 'info', slot: 'above_list' }, 'en').title);
    expect(`${en.body}${he.body}`).not.toContain('undefined');
  });

  it('fills counts and reasons into the wording', () => {
    const en = renderNotice({ code: 'run_funnel', severity: 'warning', slot: 'above_list', params: PARAMS }, 'en');
    expect(en.body).toContain('120 profiles screened');
    expect(en.body).toContain('exhausted');
    expect(
      renderNotice({ code: 'run_progress', severity: 'info', slot: 'above_list', params: PARAMS }, 'he').body,
    ).toContain('3 מתוך 10');
  });

  it('words an unknown code generically in both languages, naming the code', () => {
    const he = renderNotice({ code: 'zz_certification_probe', severity: 'zz', slot: 'zz' }, 'he');
    const en = renderNotice({ code: 'zz_certification_probe', severity: 'zz', slot: 'zz' }, 'en');
    expect(he.title).toMatch(HEBREW);
    expect(he.body).toContain('zz_certification_probe');
    expect(en.body).toContain('zz_certification_probe');
    expect(renderNotice({ code: 'toString', severity: 'info', slot: 'above_list' }, 'en').body).toContain('toString');
  });

  it('fault runs-read.notice-language-ignored answers English to a Hebrew request', () => {
    const r = renderNotice({ code: 'run_progress', severity: 'info', slot: 'above_list', params: PARAMS }, 'he', {
      faults: new Set(['runs-read.notice-language-ignored']),
    });
    expect(r.title).not.toMatch(HEBREW);
  });
});

const candidate: EngineCandidate = {
  id: 9007199254740993n,
  name: 'Dana Ben-David',
  title: 'Backend Engineer, see https://dana.example.dev/cv',
  company: 'Freelance (www.dana-consulting.example.com)',
  location: 'Haifa, call 054-123-4567',
  verdict: 'good',
  requirements: [
    {
      index: 0,
      text: 'Python',
      kind: 'must',
      met: true,
      evidence: '"Dana Ben-David works with Python. Reach dana.bd@mail.example.com or +972-54-123-4567."',
    },
    {
      index: 1,
      text: 'Kafka',
      kind: 'nice',
      met: false,
      evidence:
        "No mention of Kafka in Dana's profile; Ben-David lists linkedin.com/in/dana-bd and David's site http://x.example/y",
    },
    { index: 2, text: '5+ years', kind: 'must', met: true, evidence: 'Dana has 9 years of experience (2015-2024).' },
    { index: 3, text: 'clearance', kind: 'must', met: null, evidence: null },
  ],
  email: 'dana.bd@mail.example.com',
  phone: '+972-54-123-4567',
  priceCredits: 10,
};

describe('sandbox masking', () => {
  const masked = maskCandidate(candidate);
  const all = [
    masked.name,
    masked.title,
    masked.company,
    masked.location,
    ...masked.requirements.map((r) => r.evidence ?? ''),
  ].join(' | ');

  it('masks the name as a stable Candidate XXXX derived from the id', () => {
    expect(masked.name).toMatch(/^Candidate [0-9A-F]{4}$/);
    expect(maskCandidate(candidate).name).toBe(masked.name);
    expect(pseudonym(9007199254740995n)).not.toBe(masked.name);
  });

  it('replaces the name and each part of it inside evidence, leaving no e-mail, URL or phone anywhere', () => {
    expect(all).not.toMatch(/Dana|Ben|David/);
    expect(all).not.toMatch(/@|https?:|www\.|linkedin\.com|\d{3}-\d{3}-\d{4}|\+972/);
    expect(masked.requirements[1]!.evidence).toContain(`; ${masked.name} lists`);
    expect(masked.requirements[0]!.evidence).toBe(
      `"${masked.name} works with Python. Reach [email hidden in sandbox] or [phone hidden in sandbox]."`,
    );
    expect(masked.requirements[1]!.evidence).toContain(`${masked.name}'s profile`);
    expect(masked.requirements[1]!.evidence).toContain('[link hidden in sandbox]');
    expect(masked.title).toBe('Backend Engineer, see [link hidden in sandbox]');
    expect(masked.company).toBe('Freelance ([link hidden in sandbox])');
    expect(masked.location).toBe('Haifa, call [phone hidden in sandbox]');
    // Years and year ranges are not phone numbers.
    expect(masked.requirements[2]!.evidence).toBe(`${masked.name} has 9 years of experience (2015-2024).`);
    expect(masked.requirements[3]!.evidence).toBeNull();
  });

  it('replaces a Hebrew-script name too', () => {
    const he = maskCandidate({
      ...candidate,
      name: 'נועה כהן',
      requirements: [
        { index: 0, text: 'x', kind: 'must', met: true, evidence: 'נועה כהן עובדת עם Python; נועה מנוסה' },
      ],
    });
    expect(he.requirements[0]!.evidence).not.toMatch(/נועה|כהן/);
  });

  it('swaps the real contact for the synthetic one, keeping a missing value missing', () => {
    expect(masked.email).toBe('candidate-9007199254740993@sandbox.svc.invalid');
    expect(maskCandidate({ ...candidate, phone: null }).phone).toBeNull();
    expect(sandboxContact(9007199254740993n)).toEqual({
      email: 'candidate-9007199254740993@sandbox.svc.invalid',
      phone: '+1-555-010-0993',
    });
    expect(sandboxContact(7n).phone).toBe('+1-555-010-0007');
  });

  it('masking rules: names and e-mails left unmasked each break only their rule', () => {
    const named = maskCandidate(candidate, { rules: { ...SPEC_MASKING, names: false } });
    expect(named.name).toBe('Dana Ben-David');
    expect(named.requirements[0]!.evidence).toContain('Dana Ben-David');
    expect(named.requirements[0]!.evidence).toContain('[email hidden in sandbox]');
    const mailed = maskCandidate(candidate, { rules: { ...SPEC_MASKING, emails: false } });
    expect(mailed.name).toBe(masked.name);
    expect(mailed.requirements[0]!.evidence).toContain('dana.bd@mail.example.com');
  });
});

describe('masking real engine output', () => {
  it('leaves no contact identifier and no name part in any candidate of a real run', async () => {
    const { createEngine } = await import('../engine/index.js');
    const engine = createEngine({ seed: 3, timeScale: 1, faults: new Set() });
    const texts: string[] = [];
    let contactsSeen = 0;
    for (const [i, city] of ['Tel Aviv', 'Haifa', 'Jerusalem', 'Netanya'].entries()) {
      const runId = `run-${i}`;
      engine.startRun({
        runId,
        organizationId: 'org',
        job: { externalId: `j${i}`, title: 'Engineer', descriptionText: 'x', locationText: city },
        requirements: [
          { index: 0, text: 'Python or React or Kubernetes or SQL or Java', kind: 'must', origin: 'partner' },
          { index: 1, text: 'English', kind: 'nice', origin: 'partner' },
        ],
        targetCount: 20,
        startedAt: 0,
      });
      for (const c of engine.snapshot(runId, 10_000_000)!.candidates) {
        const raw = c.requirements.map((r) => r.evidence ?? '').join(' ');
        if (/@|https:|\+972/.test(raw)) contactsSeen++;
        const m = maskCandidate(c);
        const text = [m.name, m.title, m.company, m.location, ...m.requirements.map((r) => r.evidence ?? '')].join(' ');
        for (const part of c.name.split(/[\s-]+/))
          expect(text).not.toMatch(new RegExp(`(?<![\\p{L}])${part}(?![\\p{L}])`, 'u'));
        texts.push(text);
      }
    }
    engine.close();
    expect(texts.length).toBe(80);
    expect(contactsSeen).toBeGreaterThan(5);
    for (const t of texts) expect(t).not.toMatch(/@|https?:\/\/|www\.|\+972|\d{2,3}-\d{3}-\d{4}/);
  });
});
