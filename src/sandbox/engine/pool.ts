import { createRandom, type Random } from './random.js';
import {
  CITIES,
  COMPANIES,
  DEGREES,
  FAMILIES,
  FIRST_NAMES,
  HEBREW_NAMES,
  LANGUAGES,
  LAST_NAMES,
  SENIORITY,
} from './vocabulary.js';

export interface Profile {
  id: bigint;
  name: string;
  title: string;
  company: string | null;
  /** English city name; `null` for a profile that states none. */
  city: string | null;
  /** How the profile writes its location, when more than the city (the candidate's `location`). */
  address?: string;
  years: number;
  /** Empty on a sparse profile: its skills cannot be determined (met: null). */
  skills: string[];
  languages: string[];
  degree: string | null;
  /** Free text, sometimes with the person's e-mail, links and phone inside (exercises sandbox masking). */
  summary: string;
  email: string | null;
  phone: string | null;
  /** 'extended' profiles come from a paid source: dearer and flagged with `paid_fallback`. */
  source: 'standard' | 'extended';
}

export const DEFAULT_POOL_SIZE = 4000;

/** Ids start above 2^31; every fourth one lies above 2^53 so a float round-trip corrupts it visibly. */
const SMALL_ID_BASE = 3_000_000_000n;
const HUGE_ID_BASE = 9_007_199_254_740_993n; // 2^53 + 1: the first integer a double cannot hold

const INT64_MAX = 2n ** 63n - 1n;

/** How the pool numbers its profiles: the default mixes both sides of 2^53; `above-2-53` keeps every id above it. */
export type IdRange = 'mixed' | 'above-2-53';

function profileId(index: number, range: IdRange = 'mixed'): bigint {
  if (range === 'above-2-53') {
    // Both ends of what a double cannot hold, alternately: from 2^53 + 1 up (odd ones, which a double
    // rounds) and from 2^63 - 1, the largest int64, down.
    return index % 2 === 0 ? HUGE_ID_BASE + BigInt(index) : INT64_MAX - BigInt(index - 1);
  }
  return index % 4 === 0 ? HUGE_ID_BASE + BigInt(index / 4) * 2n : SMALL_ID_BASE + BigInt(index) * 7919n;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');
}

function phoneNumber(rng: Random): string {
  return `+972-5${rng.int(0, 8)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;
}

function sampleDistinct<T>(rng: Random, items: readonly T[], count: number): T[] {
  const copy = [...items];
  const out: T[] = [];
  while (out.length < count && copy.length > 0) out.push(...copy.splice(rng.int(0, copy.length - 1), 1));
  return out;
}

function makeProfile(rng: Random, index: number, range: IdRange): Profile {
  const family = rng.pick(Object.values(FAMILIES));
  const hebrew = rng.chance(0.08);
  const name = hebrew ? rng.pick(HEBREW_NAMES) : `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
  const years = rng.int(0, 22);
  const seniority =
    years < 2 ? SENIORITY[0] : years < 5 ? SENIORITY[1] : years < 10 ? SENIORITY[2] : rng.pick(SENIORITY.slice(2));
  const title = `${seniority} ${rng.pick(family.titles)}`.trim();
  const sparse = rng.chance(0.1);
  const skills = sparse ? [] : sampleDistinct(rng, family.skills, rng.int(3, Math.min(7, family.skills.length)));
  const languages = ['Hebrew', ...sampleDistinct(rng, LANGUAGES.slice(1), rng.int(0, 2))];
  const degree = rng.chance(0.8) ? rng.pick(DEGREES) : null;
  const city = rng.chance(0.95) ? rng.pick(CITIES).en : null;
  const handle = hebrew ? `candidate${index}` : slug(name);
  const hasEmail = rng.chance(0.85);
  const email = hasEmail ? `${handle}@mail.example.com` : null;
  const phone = !hasEmail || rng.chance(0.7) ? phoneNumber(rng) : null;
  const company = rng.chance(0.05)
    ? `Freelance (https://${handle}.example.dev)`
    : rng.chance(0.97)
      ? rng.pick(COMPANIES)
      : null;

  // Contact details written into the text itself, as real profiles often have them; the skills sentence is
  // the one quoted as evidence, so masking gets exercised on what a run read shows.
  const contactBits: string[] = [];
  if (email && rng.chance(0.35)) contactBits.push(`reach ${name} at ${email}`);
  // Every other profile writes them as people type them: a link without its scheme, a national number
  // without separators (spec: "any URL", "any phone number"); the choice uses no draw of rng, so every
  // other profile stays as it was.
  const typed = index % 2 === 0;
  if (rng.chance(0.3)) contactBits.push(`portfolio ${typed ? '' : 'https://www.'}linkedin.com/in/${handle}-${index}`);
  if (phone && rng.chance(0.25))
    contactBits.push(`phone ${typed ? phone.replace(/^\+972-/, '0').replace(/-/g, '') : phone}`);
  const first = name.split(' ')[0];
  const skillSentence = skills.length > 0 ? `${first} works with ${skills.join(', ')}` : `${first} lists no skills`;
  const sentences = [
    `${name} is a ${title.toLowerCase()} with ${years} years of experience${company ? ` at ${company}` : ''}.`,
    `${skillSentence}${contactBits.length > 0 ? `; ${contactBits.join('; ')}` : ''}.`,
    `Languages: ${languages.join(', ')}.`,
  ];
  if (degree) sentences.push(`Education: ${degree}.`);

  return {
    id: profileId(index, range),
    name,
    title,
    company,
    city,
    years,
    skills,
    languages,
    degree,
    summary: sentences.join(' '),
    email,
    phone,
    source: rng.chance(0.1) ? 'extended' : 'standard',
  };
}

/** The synthetic candidate pool: a pure function of its seed, size and id range (the range draws nothing). */
export function createPool(seed: number, size: number = DEFAULT_POOL_SIZE, range: IdRange = 'mixed'): Profile[] {
  const rng = createRandom(seed);
  const pool: Profile[] = [];
  for (let i = 0; i < size; i++) pool.push(makeProfile(rng, i, range));
  return pool;
}
