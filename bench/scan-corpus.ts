// The generated corpus of `npm run bench:scan`, written streaming (the generator itself stays small):
// a 50 MB folder of minified one-line bundles, a source map and a gzipped bundle, and a 150 MB HAR
// with request and response parts, base64 bodies among them. A few real-looking keys are planted so
// that the scan also reports.

import { createWriteStream, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const MB = 1 << 20;

function bundleText(bytes: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  let i = seed;
  while (size < bytes) {
    const piece = `function f${i}(a,b){var c=a.split("_"),d=b||{};return d.spk?c.join(":"):fetch("/api/v1/runs/"+a,{headers:{"x-svc-lang":"en"}})};`;
    parts.push(piece);
    size += piece.length;
    i++;
  }
  return parts.join('');
}

async function writeStreaming(path: string, total: number, piece: (i: number) => string): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  for (let i = 0; written < total; i++) {
    const s = piece(i);
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return written;
}

export async function generateCorpus(
  dir: string,
): Promise<{ bundleBytes: number; harBytes: number; harPath: string; bundleDir: string }> {
  const bundleDir = join(dir, 'dist');
  mkdirSync(bundleDir, { recursive: true });
  const chunk = bundleText(MB, 0);
  const key = `spk_live_${'0f'.repeat(24)}`;
  let bundleBytes = 0;
  for (let f = 0; f < 4; f++) {
    // One line per file, the way a minifier writes it; a key planted in the first.
    bundleBytes += await writeStreaming(join(bundleDir, `chunk-${f}.min.js`), 11 * MB, (i) =>
      f === 0 && i === 5 ? `${chunk}var k="${key}";` : chunk,
    );
  }
  const map = JSON.stringify({
    version: 3,
    sources: ['src/a.ts'],
    sourcesContent: [bundleText(2 * MB, 7).replace(/;/g, ';\n')],
    mappings: 'A'.repeat(MB),
  });
  writeFileSync(join(bundleDir, 'chunk-0.min.js.map'), map);
  bundleBytes += map.length;
  const gz = gzipSync(bundleText(MB, 3));
  writeFileSync(join(bundleDir, 'vendor.js.gz'), gz);
  bundleBytes += MB;

  const harPath = join(dir, 'session.har');
  const body = bundleText(24 * 1024, 11);
  const b64 = Buffer.from(body).toString('base64');
  const entry = (i: number): string =>
    JSON.stringify({
      startedDateTime: '2026-01-01T00:00:00.000Z',
      request: {
        method: 'GET',
        url: `https://app.example/api/v1/runs/${i}?lang=en`,
        headers: [
          { name: 'accept', value: 'application/json' },
          { name: 'cookie', value: `session=${i}` },
          ...(i === 1000 ? [{ name: 'x-svc-org', value: `sot_${'e5'.repeat(24)}` }] : []),
        ],
        cookies: [{ name: 'session', value: String(i) }],
        queryString: [{ name: 'lang', value: 'en' }],
        ...(i % 5 === 0
          ? {
              postData: {
                mimeType: 'application/json',
                text: JSON.stringify({ decisions: [{ candidate_id: 990000000001, decision: 'shortlisted' }] }),
              },
            }
          : {}),
      },
      response: {
        status: 200,
        headers: [{ name: 'content-type', value: 'application/json; charset=utf-8' }],
        content:
          i % 3 === 0
            ? { size: body.length, mimeType: 'application/javascript', text: b64, encoding: 'base64' }
            : { size: body.length, mimeType: 'text/javascript', text: body },
      },
    });
  const harTarget = 150 * MB;
  const harBytes = await writeStreaming(harPath, harTarget, (i) => {
    if (i === 0) return '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[';
    const e = entry(i);
    return i === 1 ? e : `,${e}`;
  });
  const tail = createWriteStream(harPath, { flags: 'a' });
  tail.end(']}}');
  await once(tail, 'finish');
  return { bundleBytes, harBytes: harBytes + 3, harPath, bundleDir };
}
