// Profile text as real profiles write it (variant sandbox.realistic-profile-text): stacks with dots
// and slashes, companies that are domains or hold digits, street addresses with numbers and postal
// codes, standards, versions, year ranges and "24/7". None of it is a contact identifier, so a
// sandbox that shows it unmasked is right, and a certifier that calls it an e-mail, a link or a phone
// blames a conformant server. The contact details the pool already writes into summaries stay.
import type { Profile } from './pool.js';

const TITLE_ADDITIONS = [
  ' (ASP.NET/MVC)',
  ', VB.NET/C#',
  ' – Node.js/React, socket.io/redis',
  ' · Python 3.12',
  ' (ISO 27001)',
  ', 24/7 on-call',
  ' (C++17/20)',
  ' – .NET 8 / EF Core 8.0',
] as const;

const COMPANIES = [
  'Booking.com',
  'Monday.com',
  '3M',
  'Wix.com Ltd.',
  'Fiverr.com',
  '888 Holdings',
  '7-Eleven',
  'Payoneer (NASDAQ: PAYO)',
  'Bank Hapoalim B.M.',
  'Check Point Software Technologies',
] as const;

const STREETS = [
  '12 Rothschild Blvd',
  'Azrieli Center, 132 Menachem Begin Rd, Floor 34',
  'HaBarzel St 3, 6971005',
  'Building 2, 25 Ha-Melacha St',
  'Derech Ben Gurion 2, Tower 1, 29th floor',
] as const;

const STACK_PHRASES = [
  'ASP.NET/MVC and VB.NET/C# (2019–2023)',
  'socket.io/redis at Booking.com',
  'Python 3.12 and ISO 27001 audits',
  '24/7 on-call for 3M',
  'C++17/20 since 2016–2019',
  'Node.js/React at Monday.com',
  'ISO/IEC 27001:2022 and SOC 2 Type II',
  'Windows Server 2012 R2 / 2016 / 2019',
] as const;

function at<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** The profile with real-world title, company, address and skills text; matching data unchanged. */
export function realisticProfile(p: Profile, index: number): Profile {
  const first = p.name.split(' ')[0];
  const skills = `${first} works with ${p.skills.join(', ')}`;
  const summary = p.skills.length > 0 ? p.summary.replace(skills, `${skills}, ${at(STACK_PHRASES, index)}`) : p.summary;
  // A company written as a link (a freelancer's site) stays: masking it is the sandbox's duty.
  const company = p.company === null || p.company.includes('://') ? p.company : at(COMPANIES, index);
  return {
    ...p,
    title: `${p.title}${at(TITLE_ADDITIONS, index)}`,
    company,
    ...(p.city !== null ? { address: `${at(STREETS, index)}, ${p.city}` } : {}),
    summary: company === p.company ? summary : summary.replace(` at ${p.company}.`, ` at ${company}.`),
  };
}
