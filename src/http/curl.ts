// "Reproduce with: curl …" (Schemathesis style): a command a person can paste after exporting the
// variables it names, with no secret in it.

import type { Redactor } from '../config/redact.js';

/** Bodies beyond this are cut in the command (and said so), keeping reports readable. */
const CURL_BODY_LIMIT = 64 * 1024;

export function renderCurl(
  req: { method: string; url: string; headers: Record<string, string>; body?: string },
  redactor: Redactor,
): string {
  const lines: string[] = [];
  let body = req.body;
  let note = '';
  if (body !== undefined && body.length > CURL_BODY_LIMIT) {
    note = `# request body cut to ${CURL_BODY_LIMIT} of ${body.length} characters\n`;
    body = body.slice(0, CURL_BODY_LIMIT);
  }
  // -i shows the status and headers the checks judged; curl follows no redirect unless told.
  const first = ['curl', '-sS', '-i'];
  if (req.method !== 'GET' || body !== undefined) first.push('-X', redactor.shell(req.method));
  first.push(redactor.shell(req.url));
  lines.push(first.join(' '));
  for (const [name, value] of Object.entries(req.headers)) {
    // "name;" is curl's way to send a header with an empty value ("name:" would remove it).
    lines.push(`-H ${redactor.shell(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  if (body !== undefined) {
    // Without this curl would add a form content type the certifier never sent.
    if (!Object.keys(req.headers).some((name) => name.toLowerCase() === 'content-type'))
      lines.push(`-H 'content-type:'`);
    lines.push(`--data-raw ${redactor.shell(body)}`);
  }
  return note + lines.join(' \\\n  ');
}
