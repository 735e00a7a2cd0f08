// "a curl that replays it with $SVC_WEBHOOK_SECRET": the signature is recomputed in the shell
// (openssl) from the exported secret, so the command holds no secret and replays exactly the bytes.

import type { Delivery } from './deliveries.js';
import { WRONG_SECRET } from './deliveries.js';

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Shell text that prints the lowercase hex HMAC-SHA256 of the variable's bytes, keyed with `secretExpr`. */
export function hmacShell(variable: string, secretExpr: string): string {
  return `printf '%s' "$${variable}" | openssl dgst -sha256 -hmac ${secretExpr} | sed 's/^.*= //'`;
}

function hmacOf(variable: string, secretExpr: string): string {
  return `$(${hmacShell(variable, secretExpr)})`;
}

export function replayCurl(url: string, d: Delivery, insecure: boolean): string {
  const lines: string[] = [`body=${quote(d.body)}`];
  let signature: string | undefined;
  switch (d.signature.kind) {
    case 'valid':
      signature = `sha256=${hmacOf('body', '"$SVC_WEBHOOK_SECRET"')}`;
      break;
    case 'wrong-secret':
      signature = `sha256=${hmacOf('body', quote(WRONG_SECRET))}`;
      break;
    case 'truncated':
      signature = `sha256=$(${hmacShell('body', '"$SVC_WEBHOOK_SECRET"')} | cut -c1-${d.signature.hexDigits})`;
      break;
    case 'body-changed':
      lines.push(`signed=${quote(d.signature.signedBody)}`);
      signature = `sha256=${hmacOf('signed', '"$SVC_WEBHOOK_SECRET"')}`;
      break;
    case 'none':
      break;
  }
  const curl = [
    'curl -sS -i --max-time 10',
    ...(insecure ? ['-k'] : []),
    `-X POST ${quote(url)}`,
    `-H 'content-type: application/json'`,
  ];
  if (signature !== undefined) curl.push(`-H "x-svc-signature: ${signature}"`);
  curl.push(`--data-binary "$body"`);
  lines.push(curl.join(' \\\n  '));
  return lines.join('\n');
}
