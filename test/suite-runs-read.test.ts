// The runs-read suite (with the sandbox masking checks it holds) against the embedded sandbox: every
// check passes on a clean one, at a high time scale and at 60 (where the shared run is read while
// still running) (that each fault makes its check fail is the fault matrix's, on the check's own assertion).

import { describe, expect, it } from 'vitest';
import { RUNS_READ_CHECKS } from '../suites/runs-read/index.js';
import { exposedContact, findPhone } from '../suites/runs-read/masking.js';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';
import { listFaults } from '../src/sandbox/index.js';

const ids = RUNS_READ_CHECKS.map((c) => c.id);

describe('suite runs-read', () => {
  it('all pass against the clean sandbox, within the real-run budget', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
    // Only the three shared real runs: the first, the second (which runs-start's title check starts
    // anyway, for the pseudonyms both runs must agree on) and the short one (a run ending short of its
    // target explained by a notice): the certification's budget.
    expect(result.stats?.realRuns).toBeLessThanOrEqual(3);
  });

  it('all pass at time scale 60, where the shared run is read while still running', async () => {
    const result = await certifySandbox({ ids, timeScale: 60 });
    expect(notPassed(result)).toEqual([]);
    const reads = result.checks
      .find((c) => c.id === 'runs-read.progress-monotonic')!
      .exchanges.filter((e) => /read run #/.test(e.label ?? ''));
    expect(reads.some((e) => /"status":"running"/.test(e.response?.body ?? ''))).toBe(true);
  });
});

describe('judged over every read of the shared real run', () => {
  it('a drop between the reads of two checks fails screened-never-decreases, citing the read that shows it', async () => {
    // The fault goes one above the count on every other read after the end: no check's own reads
    // show it against the setup's, only the reads of all checks in order do.
    const judges = [
      'runs-read.progress-monotonic',
      'runs-read.candidate-list-grows',
      'runs-read.screened-never-decreases',
    ];
    const result = await certifySandbox({ ids: judges, faults: ['runs-read.screened-down-every-other-read'] });
    const screened = resultOf(result, 'runs-read.screened-never-decreases');
    expect(screened.status).toBe('failed');
    const cited = screened.observations[0]?.exchange;
    expect(cited).toBeDefined();
    expect(screened.exchanges[cited!]?.request.method).toBe('GET');
    // Every judge saw the reads the others made: more reads than its own and the setup's.
    const ownLabels = /read the run again \(/;
    const readsSeen = screened.exchanges.filter((e) => ownLabels.test(e.label ?? '')).length;
    expect(readsSeen).toBeGreaterThan(2);
    // confirmed and the candidate list do not move under this fault.
    expect(resultOf(result, 'runs-read.progress-monotonic').status).toBe('passed');
    expect(resultOf(result, 'runs-read.candidate-list-grows').status).toBe('passed');
  });
});

describe('phone detector of sandbox.contact-identifiers-masked', () => {
  it.each([
    'TypeScript 5.4 (2019-2024)',
    'Node.js 18.0.1 2020-2024',
    'Worked 2016 - 2018 2018 - 2023',
    '(2015-2019) (2019-2023)',
    'Backend engineer 2012-2016, 2016-2024',
    'Python 3.11.4, Django 4.2 (2020 - 2024)',
    'employee id 123456789',
    'C++ 17 since 2015 2016',
    'Tel Aviv 6473925',
    '[phone hidden in sandbox]',
    'released 2021-05-12',
    'order 0123456789012',
    'v1.0521234567',
  ])('does not flag %j', (text) => {
    expect(findPhone(text)).toBeUndefined();
  });

  it.each([
    ['call +972-54-123-4567 today', '+972-54-123-4567'],
    ['mobile 054-1234567', '054-1234567'],
    ['office (03) 555-1234.', '(03) 555-1234'],
    ['US: +1 555 010 1234', '+1 555 010 1234'],
    ['+1-555-010-0042', '+1-555-010-0042'],
    ['555.010.1234', '555.010.1234'],
    ['03-555-1234', '03-555-1234'],
    ['(555) 010-1234', '(555) 010-1234'],
    ['+972541234567', '+972541234567'],
    ['phone 0521234567.', '0521234567'],
    ['call 031234567 now', '031234567'],
  ])('flags %j', (text, phone) => {
    expect(findPhone(text)).toBe(phone);
  });
});

describe('contact detectors of sandbox.contact-identifiers-masked on real-world profile text', () => {
  // The sandbox's realistic-text variant shows stacks, domain companies, addresses, standards and year
  // ranges: each masking fault must still be caught among them, by its own leftover contact.
  const MASKING = listFaults().filter((f) => f.caughtBy === 'sandbox.contact-identifiers-masked');
  it('the realistic-text variant has masking faults to be proven with', () => {
    expect(MASKING.map((f) => f.id).sort()).toEqual([
      'sandbox.bare-phone-left',
      'sandbox.email-left-in-evidence',
      'sandbox.schemeless-link-left',
    ]);
  });
  for (const fault of MASKING) {
    it(`fault ${fault.id} is still caught with realistic profile text`, async () => {
      const r = resultOf(
        await certifySandbox({
          ids: ['sandbox.contact-identifiers-masked'],
          faults: [fault.id],
          variants: ['sandbox.realistic-profile-text'],
        }),
        'sandbox.contact-identifiers-masked',
      );
      expect(r.status, r.message).toBe('failed');
      expect(r.message).not.toMatch(/ASP\.NET|VB\.NET|socket\.io|Booking\.com|Monday\.com|ISO|2019–2023|24\/7/);
    });
  }

  it.each([
    'Senior ASP.NET/MVC Developer',
    'VB.NET/C# Engineer',
    'Full-stack (Node.js/React, socket.io/redis)',
    'Asp.net/mvc and vb.net/c# maintenance',
    'Uses @socket.io/redis-adapter in production',
    'Booking.com',
    'Monday.com',
    '3M',
    'Wix.com Ltd.',
    'Check Point Software Technologies (NASDAQ: CHKP)',
    'Azrieli Center, 132 Menachem Begin Rd, Floor 34, Tel Aviv 6701101',
    '12 Rothschild Blvd, Tel Aviv-Yafo',
    'ISO 27001 lead auditor',
    'ISO/IEC 27001:2022 and SOC 2 Type II',
    'Python 3.12, Django 5.0',
    'Team lead 2019–2023, engineer 2016–2019',
    '24/7 on-call NOC engineer',
    'C++17/20, Qt 6.5',
    'Windows Server 2012 R2 / 2016 / 2019',
    '.NET 8 / EF Core 8.0',
    'Ruby on Rails 7.1 at Fiverr.com (2020–2024)',
    'Wix.com/Monday.com alumni',
    '[link hidden in sandbox] and [phone hidden in sandbox]',
  ])('finds nothing in %j', (text) => {
    expect(exposedContact(text)).toBeUndefined();
  });

  it.each([
    ['portfolio linkedin.com/in/dana-levi-42', 'linkedin.com/in/dana-levi-42'],
    ['see LinkedIn.com/in/danalevi', 'LinkedIn.com/in/danalevi'],
    ['code at github.com/dana-levi', 'github.com/dana-levi'],
    ['https://socket.io/docs/v4', 'https://socket.io/docs/v4'],
    ['www.booking.com/careers', 'www.booking.com/careers'],
    ['reach dana.levi@mail.example.com', 'dana.levi@mail.example.com'],
    ['office 03-555-1234, 12 Rothschild Blvd', '03-555-1234'],
    ['+972-54-123-4567 (24/7)', '+972-54-123-4567'],
  ])('finds the contact in %j', (text, found) => {
    // The phone pattern may take a trailing digit group along ("… (24"): what matters is that it is found.
    expect(exposedContact(text)).toContain(found);
  });
});
