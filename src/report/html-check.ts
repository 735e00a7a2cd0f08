// One check of report.html: a row that opens onto what was expected, what was received, where in the
// spec, the exchanges that prove it and the curl that reproduces it.

import type { CheckResult, CheckStatus, Observation, RecordedExchange, RecordedMessage } from '../runner/results.js';
import { exchangeOf, formatDuration, reproductionExchanges } from './format.js';
import { escapeHtml as h } from './html-escape.js';

export const STATUS_ICON: Record<CheckStatus, string> = { passed: '✓', failed: '✗', skipped: '○', error: '!', warning: '⚠' };

/** Target-controlled text in a block that keeps whitespace and lets RTL text find its own direction. */
function pre(text: string, cls?: string): string {
  return `<pre dir="auto"${cls ? ` class="${cls}"` : ''}>${h(text)}</pre>`;
}

function commandBlock(curl: string): string {
  return `<div class="cmd">${pre(curl, 'curl')}<button type="button" class="copy" aria-label="Copy curl command">Copy</button></div>`;
}

function messageBlock(kind: string, head: string, message: RecordedMessage): string {
  const headers = Object.entries(message.headers).map(([name, value]) => `${name}: ${value}`).join('\n');
  let out = `<div><h5>${h(kind)}</h5>${pre(headers ? `${head}\n${headers}` : head, 'headers')}`;
  if (message.body !== undefined && message.body !== '') {
    out += pre(message.body, 'body');
    if (message.bodyTruncated) {
      out += `<p class="note">Body truncated${message.bodyBytes !== undefined ? ` (${message.bodyBytes} bytes in all)` : ''}.</p>`;
    }
  }
  return `${out}</div>`;
}

function exchangeSummary(exchange: RecordedExchange): string {
  const status = exchange.response
    ? `<span class="status-code">${exchange.response.status}</span>`
    : `<span class="status-code">${h(exchange.transportError?.code ?? 'no response')}</span>`;
  const label = exchange.label ? ` <span class="note">${h(exchange.label)}</span>` : '';
  return `#${exchange.index} <span class="mono">${h(exchange.request.method)} ${h(exchange.request.url)}</span> → ${status} (${h(formatDuration(exchange.durationMs))})${label}`;
}

function exchangeBlock(exchange: RecordedExchange, open: boolean): string {
  const { request, response } = exchange;
  let body = messageBlock('Request', `${request.method} ${request.url}`, request);
  if (response) body += messageBlock('Response', `HTTP ${response.status}`, response);
  if (exchange.transportError) {
    body += `<div><h5>Transport error</h5>${pre(`${exchange.transportError.code}: ${exchange.transportError.message}`)}</div>`;
  }
  body += `<div><h5>curl</h5>${commandBlock(exchange.curl)}</div>`;
  return `<details class="exchange"${open ? ' open' : ''}><summary>${exchangeSummary(exchange)}</summary><div class="exchange-body">${body}</div></details>`;
}

function observationItem(check: CheckResult, observation: Observation): string {
  const rows: string[] = [];
  if (observation.expected !== undefined) rows.push(`<dt>Expected</dt><dd>${pre(observation.expected, 'expected')}</dd>`);
  if (observation.received !== undefined) rows.push(`<dt>Received</dt><dd>${pre(observation.received, 'received')}</dd>`);
  rows.push(`<dt>Spec</dt><dd class="spec">${h(observation.spec)}</dd>`);
  if (observation.pointer !== undefined) {
    rows.push(`<dt>Pointer</dt><dd><code class="pointer">${h(observation.pointer === '' ? '"" (whole body)' : observation.pointer)}</code></dd>`);
  }
  const exchange = exchangeOf(check, observation);
  if (exchange) rows.push(`<dt>Exchange</dt><dd>${exchangeSummary(exchange)}</dd>`);
  const warning = observation.severity === 'warning';
  const badge = warning ? '<span class="badge">warning</span> ' : '';
  return `<li class="obs${warning ? ' obs-warning' : ''}"><p class="obs-msg">${badge}${h(observation.message)}</p><dl class="ev">${rows.join('')}</dl></li>`;
}

function detailBody(check: CheckResult): string {
  const parts: string[] = [];
  if (check.status === 'failed' && check.expected) {
    parts.push(`<p class="expected-note"><strong>Expected failure</strong>: accepted by the baseline until <span class="mono">${h(check.expected.until)}</span> — ${h(check.expected.reason)}</p>`);
  }
  if (check.message) parts.push(`<p class="message">${h(check.message)}</p>`);
  if (check.spec.length > 0) parts.push(`<p class="specs">Spec: ${check.spec.map((s) => `<span class="spec">${h(s)}</span>`).join('; ')}</p>`);
  if (check.status === 'error' && check.error) {
    parts.push('<h4>Engine error</h4>');
    parts.push(`<p>The certifier broke while running this check; this is not a verdict on the target.</p>`);
    parts.push(pre(check.error.stack ?? `${check.error.name}: ${check.error.message}`, 'stack'));
  }
  if (check.observations.length > 0) {
    parts.push(`<h4>Observations</h4><ol class="observations">${check.observations.map((o) => observationItem(check, o)).join('')}</ol>`);
  }
  if (check.status === 'failed') {
    const repro = reproductionExchanges(check);
    if (repro.length > 0) parts.push(`<h4>Reproduce with</h4><div class="repro">${repro.map((e) => commandBlock(e.curl)).join('')}</div>`);
  }
  if (check.exchanges.length > 0) {
    // A failure opens the exchanges its observations cite; everything else stays one click away.
    const cited = new Set(check.observations.map((o) => o.exchange).filter((i): i is number => i !== undefined));
    const blocks = check.exchanges.map((e, i) => exchangeBlock(e, check.status === 'failed' && cited.has(i)));
    parts.push(`<h4>Exchanges (${check.exchanges.length})</h4>${blocks.join('')}`);
  }
  if (parts.length === 0) parts.push('<p class="note">No exchange recorded.</p>');
  return parts.join('');
}

/** The row's status for the filters: an expected failure is filtered (and coloured) apart from failures. */
export function rowStatus(check: CheckResult): CheckStatus | 'expected' {
  return check.status === 'failed' && check.expected ? 'expected' : check.status;
}

export function renderCheck(check: CheckResult): string {
  const status = rowStatus(check);
  const open = status === 'failed' || status === 'error' || status === 'warning';
  const reason = check.status === 'skipped' && check.message ? ` <span class="reason">— ${h(check.message)}</span>` : '';
  const icon = status === 'expected' ? '≈' : STATUS_ICON[check.status];
  const label = status === 'expected' ? 'expected failure' : status;
  return (
    `<li class="check s-${status}" data-status="${status}" data-id="${h(check.id)}">` +
    `<details${open ? ' open' : ''}><summary>` +
    `<span class="icon" role="img" aria-label="${label}">${icon}</span>` +
    `<code class="id">${h(check.id)}</code>` +
    `<span class="title">${h(check.title)}${reason}</span>` +
    `<span class="dur">${h(formatDuration(check.durationMs))}</span>` +
    `</summary><div class="detail">${detailBody(check)}</div></details></li>`
  );
}
