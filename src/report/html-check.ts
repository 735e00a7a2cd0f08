// One check of report.html: a row that opens onto what was expected, what was received, where in the
// spec, the exchanges that prove it and the curl that reproduces it.

import type { CheckResult, CheckStatus, Observation, CheckExchange, RecordedMessage } from '../runner/results.js';
import { exchangeOf, formatDuration, reproductionExchanges, skipText, STATUS_ICON } from './format.js';
import { escapeHtml as h } from './html-escape.js';

/**
 * Target-controlled text in a block that keeps whitespace and lets RTL text find its own direction.
 * Any block may scroll (its max-height, html-style.ts), so each is a focusable region named by `label`:
 * a keyboard user can reach it and scroll it (WCAG 2.1.1, axe's scrollable-region-focusable).
 */
function pre(text: string, cls: string, label: string): string {
  return `<pre dir="auto" class="${cls}" tabindex="0" role="region" aria-label="${h(label)}">${h(text)}</pre>`;
}

/**
 * An exchange as a region label names it: its method and path (the origin is the target's, shown once
 * in the summary; every block carries its label, and a clean run's report holds a thousand exchanges).
 */
function aboutOf(exchange: CheckExchange): string {
  return `${exchange.request.method} ${exchange.request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')}`;
}

function commandBlock(curl: string, about: string): string {
  return `<div class="cmd">${pre(curl, 'curl', `curl command for ${about}`)}<button type="button" class="copy" aria-label="Copy curl command">Copy</button></div>`;
}

function messageBlock(kind: string, head: string, message: RecordedMessage, about: string): string {
  const headers = Object.entries(message.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  let out = `<div><h5>${h(kind)}</h5>${pre(headers ? `${head}\n${headers}` : head, 'headers', `${kind} headers of ${about}`)}`;
  if (message.body !== undefined && message.body !== '') {
    out += pre(message.body, 'body', `${kind} body of ${about}`);
    if (message.bodyTruncated) {
      out += `<p class="note">Body truncated${message.bodyBytes !== undefined ? ` (${message.bodyBytes} bytes in all)` : ''}.</p>`;
    }
  }
  return `${out}</div>`;
}

/** The summary line of an exchange without its `#index ` prefix (the index is the check's own). */
function exchangeSummaryRest(exchange: CheckExchange): string {
  const status = exchange.response
    ? `<span class="status-code">${exchange.response.status}</span>`
    : `<span class="status-code">${h(exchange.transportError?.code ?? 'no response')}</span>`;
  const label = exchange.label ? ` <span class="note">${h(exchange.label)}</span>` : '';
  return `<span class="mono">${h(exchange.request.method)} ${h(exchange.request.url)}</span> → ${status} (${h(formatDuration(exchange.durationMs))})${label}`;
}

function exchangeSummary(exchange: CheckExchange): string {
  return `#${exchange.index} ${exchangeSummaryRest(exchange)}`;
}

function exchangeBody(exchange: CheckExchange): string {
  const { request, response } = exchange;
  const about = aboutOf(exchange);
  let body = messageBlock('Request', `${request.method} ${request.url}`, request, about);
  if (response) body += messageBlock('Response', `HTTP ${response.status}`, response, about);
  if (exchange.transportError) {
    body += `<div><h5>Transport error</h5>${pre(`${exchange.transportError.code}: ${exchange.transportError.message}`, 'transport-error', `Transport error of ${about}`)}</div>`;
  }
  if (exchange.curl !== undefined) body += `<div><h5>curl</h5>${commandBlock(exchange.curl, about)}</div>`;
  return body;
}

// The page script builds the same markup from the store (html-script.ts): keep the two in step.
function exchangeBlock(exchange: CheckExchange, open: boolean): string {
  return `<details class="exchange"${open ? ' open' : ''}><summary>${exchangeSummary(exchange)}</summary><div class="exchange-body">${exchangeBody(exchange)}</div></details>`;
}

/**
 * The exchanges of rows that open closed, once each: shared setup steps (redeem, register, the real
 * run's polls) are recorded into every check that used them, about four copies of each in a clean run.
 * Entries are [summary without index, body markup], already escaped, in order of first use.
 */
export class ExchangeStore {
  private readonly ids = new Map<string, number>();
  private readonly entries: Array<[string, string]> = [];
  /** An exchange object met again (a results.json read back shares one between its references) is not rendered again. */
  private readonly known = new WeakMap<CheckExchange, number>();

  add(exchange: CheckExchange): number {
    const seen = this.known.get(exchange);
    if (seen !== undefined) return seen;
    const entry: [string, string] = [exchangeSummaryRest(exchange), exchangeBody(exchange)];
    const key = `${entry[0]}\u0000${entry[1]}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.entries.length;
      this.entries.push(entry);
      this.ids.set(key, id);
    }
    this.known.set(exchange, id);
    return id;
  }

  /**
   * One non-executing script element holding the entries as JSON; every `<` is written \u003c, so
   * neither `</script>` nor `<!--` in a body can end the element early.
   */
  element(): string {
    if (this.entries.length === 0) return '';
    return `<script type="application/json" id="exchange-store">${inertJson(this.entries)}</script>`;
  }
}

function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function observationItem(check: CheckResult, observation: Observation, n: number): string {
  const rows: string[] = [];
  const of = `observation ${n} of ${check.id}`;
  if (observation.expected !== undefined)
    rows.push(`<dt>Expected</dt><dd>${pre(observation.expected, 'expected', `Expected, ${of}`)}</dd>`);
  if (observation.received !== undefined)
    rows.push(`<dt>Received</dt><dd>${pre(observation.received, 'received', `Received, ${of}`)}</dd>`);
  rows.push(`<dt>Spec</dt><dd class="spec">${h(observation.spec)}</dd>`);
  if (observation.pointer !== undefined) {
    rows.push(
      `<dt>Pointer</dt><dd><code class="pointer">${h(observation.pointer === '' ? '"" (whole body)' : observation.pointer)}</code></dd>`,
    );
  }
  const exchange = exchangeOf(check, observation);
  if (exchange) rows.push(`<dt>Exchange</dt><dd>${exchangeSummary(exchange)}</dd>`);
  const warning = observation.severity === 'warning';
  const badge = warning ? '<span class="badge">warning</span> ' : '';
  return `<li class="obs${warning ? ' obs-warning' : ''}"><p class="obs-msg">${badge}${h(observation.message)}</p><dl class="ev">${rows.join('')}</dl></li>`;
}

/**
 * Rows that open closed (passed, skipped) reference their exchanges in the page's store, and the page
 * script renders them when the row opens: a clean run records about a thousand exchanges, and parsing
 * and laying out all of them made the page slow to open (bench:reports measures it at 10×).
 */
function rendersLazily(check: CheckResult): boolean {
  return check.status === 'passed' || check.status === 'skipped';
}

function lazyBlock(check: CheckResult, store: ExchangeStore): string {
  const refs = check.exchanges.map((e) => `${e.index}:${store.add(e)}`).join(' ');
  return `<div class="lazy" data-lazy="${refs}"><p class="note">The exchanges appear with JavaScript on; results.json has them all.</p></div>`;
}

function detailBody(check: CheckResult, store: ExchangeStore): string {
  const parts: string[] = [];
  if (check.status === 'failed' && check.expected) {
    parts.push(
      `<p class="expected-note"><strong>Expected failure</strong>: accepted by the baseline until <span class="mono">${h(check.expected.until)}</span> — ${h(check.expected.reason)}</p>`,
    );
  }
  if (check.message) parts.push(`<p class="message">${h(check.message)}</p>`);
  if (check.spec.length > 0)
    parts.push(`<p class="specs">Spec: ${check.spec.map((s) => `<span class="spec">${h(s)}</span>`).join('; ')}</p>`);
  if (check.status === 'error' && check.error) {
    parts.push('<h4>Engine error</h4>');
    parts.push(`<p>The certifier broke while running this check; this is not a verdict on the target.</p>`);
    parts.push(
      pre(check.error.stack ?? `${check.error.name}: ${check.error.message}`, 'stack', `Stack trace of ${check.id}`),
    );
  }
  if (check.observations.length > 0) {
    parts.push(
      `<h4>Observations</h4><ol class="observations">${check.observations.map((o, i) => observationItem(check, o, i + 1)).join('')}</ol>`,
    );
  }
  if (check.status === 'failed') {
    const repro = reproductionExchanges(check);
    if (repro.length > 0)
      parts.push(
        `<h4>Reproduce with</h4><div class="repro">${repro.map((e) => (e.curl === undefined ? '' : commandBlock(e.curl, aboutOf(e)))).join('')}</div>`,
      );
  }
  if (check.exchanges.length > 0) {
    // A failure opens the exchanges its observations cite; everything else stays one click away.
    const cited = new Set(check.observations.map((o) => o.exchange).filter((i): i is number => i !== undefined));
    const blocks = rendersLazily(check)
      ? lazyBlock(check, store)
      : check.exchanges.map((e, i) => exchangeBlock(e, check.status === 'failed' && cited.has(i))).join('');
    parts.push(`<h4>Exchanges (${check.exchanges.length})</h4>${blocks}`);
  }
  if (parts.length === 0) parts.push('<p class="note">No exchange recorded.</p>');
  return parts.join('');
}

/** The row's status for the filters: an expected failure is filtered (and coloured) apart from failures. */
export function rowStatus(check: CheckResult): CheckStatus | 'expected' {
  return check.status === 'failed' && check.expected ? 'expected' : check.status;
}

export function renderCheck(check: CheckResult, store: ExchangeStore): string {
  const status = rowStatus(check);
  const open = status === 'failed' || status === 'error' || status === 'warning';
  const reason = check.status === 'skipped' ? ` <span class="reason">— ${h(skipText(check))}</span>` : '';
  const icon = status === 'expected' ? '≈' : STATUS_ICON[check.status];
  const label = status === 'expected' ? 'expected failure' : status;
  return (
    `<li class="check s-${status}" data-status="${status}" data-id="${h(check.id)}">` +
    `<details${open ? ' open' : ''}><summary>` +
    `<span class="icon" role="img" aria-label="${label}">${icon}</span>` +
    `<code class="id">${h(check.id)}</code>` +
    `<span class="title">${h(check.title)}${reason}</span>` +
    `<span class="dur">${h(formatDuration(check.durationMs))}</span>` +
    `</summary><div class="detail">${detailBody(check, store)}</div></details></li>`
  );
}
