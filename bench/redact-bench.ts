// `node dist/bench/redact-bench.js` (after `npm run build`): the redactor's time per MB of ordinary
// text (prose, JSON, base64) with a key and a token known, at 0.5 and 1 MB (the ratio shows it linear:
// about 2), and per short string. REDACT_BENCH_MODULE=path/to/dist/src/config/redact.js measures
// another build (the numbers before a change).

import { pathToFileURL } from 'node:url';
import type { createRedactor as Create } from '../src/config/redact.js';

const modulePath = process.env.REDACT_BENCH_MODULE;
const { createRedactor } = (await import(modulePath ? pathToFileURL(modulePath).href : '../src/config/redact.js')) as {
  createRedactor: typeof Create;
};

const key = `spk_live_${'5a4b3c2d1e0f9a8b'.repeat(3)}`;
const token = `sot_${'c0ffee11d00d2244'.repeat(3)}`;
const redactor = createRedactor([
  { value: key, envVar: 'SVC_PARTNER_KEY' },
  { value: token, envVar: 'SVC_ORG_TOKEN' },
]);
const prose =
  'The check runs-start.too-many-musts failed: the target answered 200 where the spec requires 422 (Runs 3). {"error":"not_found","message":"nothing here","id":"cand_0012ab"} ';
const json = JSON.stringify(
  Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `candidate ${i}`, score: i / 7, tags: ['a', 'b'] })),
);
const texts: Record<string, (chars: number) => string> = {
  prose: (n) => prose.repeat(Math.ceil(n / prose.length)).slice(0, n),
  json: (n) => json.slice(0, n),
  base64: (n) =>
    Buffer.from(prose.repeat(Math.ceil(n / prose.length)))
      .toString('base64')
      .slice(0, n),
};

function ms(f: () => void): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

const rows: string[] = ['| text | 0.5 MB ms | 1 MB ms | ratio |', '| --- | --- | --- | --- |'];
for (const [name, make] of Object.entries(texts)) {
  const half = make(500_000);
  const whole = make(1_000_000);
  redactor.text(half.slice(0, 10_000));
  const a = ms(() => redactor.text(half));
  const b = ms(() => redactor.text(whole));
  rows.push(`| ${name} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)} |`);
}
const short = ms(() => {
  for (let i = 0; i < 20_000; i++) redactor.text(`${prose}${i}`);
});
rows.push(`| 20,000 strings of ${prose.length} characters | | ${short.toFixed(0)} | |`);
console.log(rows.join('\n'));
