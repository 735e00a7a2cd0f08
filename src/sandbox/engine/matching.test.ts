import { describe, expect, it } from 'vitest';
import { evaluateRequirement, matchProfile } from './matching.js';
import type { Profile } from './pool.js';
import { priceCredits } from './pricing.js';

const profile: Profile = {
  id: 9007199254740993n,
  name: 'Dana Cohen',
  title: 'Senior Backend Engineer',
  company: 'Orbit Labs',
  city: 'Haifa',
  years: 9,
  skills: ['Python', 'Kafka', 'PostgreSQL'],
  languages: ['Hebrew', 'English'],
  degree: 'B.Sc. in Computer Science',
  summary:
    'Dana Cohen is a senior backend engineer with 9 years of experience at Orbit Labs. Dana works with Python, Kafka, PostgreSQL. Reach Dana Cohen at dana.cohen@mail.example.com.',
  email: 'dana.cohen@mail.example.com',
  phone: null,
  source: 'standard',
};
const sparse: Profile = { ...profile, skills: [], summary: 'Dana Cohen lists no skills.' };
const req = (text: string, kind: 'must' | 'nice' = 'must', index = 0) => ({ index, text, kind });

describe('requirement matching', () => {
  it('decides years, skills, languages and free text from the profile, with evidence', () => {
    expect(evaluateRequirement(profile, req('5+ years of experience'))).toMatchObject({
      met: true,
      evidence: expect.stringContaining('9 years'),
    });
    expect(evaluateRequirement(profile, req('10+ years'))).toMatchObject({ met: false });
    expect(evaluateRequirement(profile, req('Experience with Kafka'))).toMatchObject({
      met: true,
      evidence: expect.stringContaining('Kafka'),
    });
    expect(evaluateRequirement(profile, req('Go or Python'))).toMatchObject({ met: true });
    expect(evaluateRequirement(profile, req('Python and Kubernetes'))).toMatchObject({
      met: false,
      evidence: expect.stringContaining('Kubernetes'),
    });
    expect(evaluateRequirement(profile, req('Fluent English'))).toMatchObject({ met: true });
    expect(evaluateRequirement(profile, req('Backend Engineer'))).toMatchObject({ met: true });
    expect(evaluateRequirement(profile, req('Chemistry laboratory'))).toMatchObject({ met: false });
  });

  it('answers null when the profile cannot tell', () => {
    expect(evaluateRequirement(profile, req('Security clearance'))).toEqual({
      index: 0,
      text: 'Security clearance',
      kind: 'must',
      met: null,
      evidence: null,
    });
    expect(evaluateRequirement(sparse, req('Experience with Kafka'))).toMatchObject({
      met: null,
      evidence: expect.any(String),
    });
  });

  it('gives strong, good and weak verdicts and hides a clear must failure', () => {
    expect(matchProfile(profile, [req('Python'), req('Kafka', 'nice', 1)]).verdict).toBe('strong');
    expect(
      matchProfile(profile, [req('Python'), req('Driving licence', 'must', 1), req('Kafka', 'nice', 2)]).verdict,
    ).toBe('good');
    expect(
      matchProfile(profile, [req('Python'), req('Driving licence', 'must', 1), req('Kubernetes', 'nice', 2)]).verdict,
    ).toBe('weak');
    const failing = matchProfile(profile, [req('Kubernetes'), req('Python', 'nice', 1)]);
    expect(failing.failsMust).toBe(true);
    expect(failing.results.map((r) => r.index)).toEqual([0, 1]);
  });

  it('prices by verdict, seniority and source', () => {
    expect(priceCredits('strong', 9, 'standard')).toBe(16);
    expect(priceCredits('weak', 1, 'standard')).toBe(4);
    expect(priceCredits('good', 5, 'extended')).toBe(16);
  });
});
