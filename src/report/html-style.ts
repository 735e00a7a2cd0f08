// Inline stylesheet of report.html. System fonts only (the CSP forbids fetching any), colours from
// custom properties so one rule set serves light and dark schemes.

export const HTML_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa; --code: #eff2f5;
  --pass: #1a7f37; --fail: #cf222e; --err: #8250df; --skip: #9a6700; --accent: #0969da; --warn: #bc4c00;
  --pass-bg: #dafbe1; --fail-bg: #ffebe9; --err-bg: #fbefff; --skip-bg: #fff8c5; --warn-bg: #fff1e5;
  --pressed: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --panel: #151b23; --code: #1c232c;
    --pass: #3fb950; --fail: #f85149; --err: #ab7df8; --skip: #d29922; --accent: #4493f8; --warn: #f0883e;
    --pass-bg: #12261e; --fail-bg: #2d1315; --err-bg: #231634; --skip-bg: #272115; --warn-bg: #2a1a0f;
    --pressed: #1f6feb;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Hebrew", sans-serif; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.wrap { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header.top { border-bottom: 1px solid var(--border); background: var(--panel); padding: 20px 0 16px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
.verdict { display: inline-block; padding: 2px 12px; border-radius: 999px; font-size: 15px; font-weight: 600; }
.verdict.certified { color: var(--pass); background: var(--pass-bg); border: 1px solid var(--pass); }
.verdict.not-certified { color: var(--fail); background: var(--fail-bg); border: 1px solid var(--fail); }
.verdict.incomplete, .verdict.passed-not-certified, .verdict.interrupted { color: var(--skip); background: var(--skip-bg); border: 1px solid var(--skip); }
.verdict-notes { margin: 4px 0 8px; padding-left: 20px; }
.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 4px 24px; margin: 12px 0; }
.meta div { min-width: 0; }
.meta dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.counts { list-style: none; display: flex; gap: 10px; padding: 0; margin: 12px 0 0; flex-wrap: wrap; }
.count { border: 1px solid var(--border); border-radius: 8px; padding: 6px 14px; min-width: 110px; background: var(--bg); }
.count .n { display: block; font-size: 24px; font-weight: 650; line-height: 1.2; }
.count.s-passed .n { color: var(--pass); } .count.s-failed .n { color: var(--fail); }
.count.s-error .n { color: var(--err); } .count.s-skipped .n { color: var(--skip); } .count.s-warning .n { color: var(--warn); }
.countline { color: var(--muted); margin: 10px 0 0; }
nav.toolbar { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--border); }
nav.toolbar .wrap { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; padding-top: 10px; padding-bottom: 10px; }
.filters { display: inline-flex; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
.filters button { font: inherit; color: var(--fg); background: var(--bg); border: 0; border-inline-end: 1px solid var(--border);
  padding: 5px 12px; cursor: pointer; }
.filters button:last-child { border-inline-end: 0; }
/* White on the pressed filter, its count too, at 4.5:1 or more in both schemes (WCAG 1.4.3): no faded count. */
.filters button[aria-pressed="true"] { background: var(--pressed); color: #fff; }
.filters button .c { margin-inline-start: 6px; font-weight: 600; }
#search { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 8px;
  padding: 5px 10px; min-width: 260px; }
#shown { color: var(--muted); }
main { padding: 8px 0 40px; }
.tier > h2 { font-size: 19px; margin: 26px 0 4px; display: flex; gap: 10px; align-items: baseline; }
.suite h3 { font-size: 16px; margin: 14px 0 8px; display: flex; gap: 10px; align-items: baseline; }
.tier > h2 small, .suite h3 small { color: var(--muted); font-weight: normal; font-size: 13px; }
ol.checks { list-style: none; margin: 0; padding: 0; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
li.check { border-top: 1px solid var(--border); }
li.check:first-child { border-top: 0; }
li.check > details > summary { display: flex; gap: 10px; align-items: baseline; padding: 7px 12px; cursor: pointer; list-style: none; }
li.check > details > summary::-webkit-details-marker { display: none; }
li.check > details > summary:hover { background: var(--panel); }
li.check > details[open] > summary { background: var(--panel); border-bottom: 1px solid var(--border); }
.icon { font-weight: 700; width: 1.2em; text-align: center; flex: none; }
.s-passed .icon { color: var(--pass); } .s-failed .icon { color: var(--fail); }
.s-error .icon { color: var(--err); } .s-skipped .icon { color: var(--skip); } .s-warning .icon { color: var(--warn); }
.s-expected .icon, .count.s-expected .n, .expected-note { color: var(--skip); }
table.parts { border-collapse: collapse; margin: 8px 0; } table.parts th, table.parts td { text-align: left; padding: 4px 12px 4px 0; }
.coverage > h2 { font-size: 19px; margin: 22px 0 4px; display: flex; gap: 10px; align-items: baseline; }
.coverage > h2 small, .cv-map small { color: var(--muted); font-weight: normal; font-size: 12px; }
.cv-legend { list-style: none; display: flex; flex-wrap: wrap; gap: 2px 16px; padding: 0; margin: 0 0 6px; color: var(--muted); font-size: 12px; }
.cv-scroll { overflow-x: auto; border: 1px solid var(--border); border-radius: 8px; }
table.cv-map { border-collapse: collapse; width: 100%; font-size: 13px; line-height: 1.3; }
.cv-map th, .cv-map td { text-align: left; vertical-align: top; padding: 3px 10px; border-top: 1px solid var(--border); }
.cv-map thead th { border-top: 0; background: var(--panel); }
.cv-map tbody th { font-weight: normal; width: 32%; }
.cv-none td { color: var(--muted); font-style: italic; }
.cv-count { color: var(--muted); font-size: 12px; }
.cv { display: inline-block; width: 18px; height: 18px; line-height: 16px; margin: 1px; text-align: center; font-size: 12px;
  font-weight: 700; border: 1px solid; border-radius: 3px; cursor: default; }
.k-passed { color: var(--pass); background: var(--pass-bg); } .k-failed { color: var(--fail); background: var(--fail-bg); }
.k-error { color: var(--err); background: var(--err-bg); } .k-warning { color: var(--warn); background: var(--warn-bg); }
.k-expected, .cv[class*="k-skip-"] { color: var(--skip); background: var(--skip-bg); }
.cv.k-skip-not-applicable, .cv.k-skip-deselected { color: var(--muted); background: var(--panel); border-style: dashed; }
section.certification { margin-top: 24px; } section.certification > h2.cert-title { font-size: 20px; border-bottom: 2px solid var(--border); padding-bottom: 4px; }
.check .id { font-weight: 600; flex: none; }
.check .title { flex: 1; min-width: 0; }
.check .reason { color: var(--muted); }
.check .dur { color: var(--muted); flex: none; font-size: 12px; }
.detail { padding: 10px 16px 14px 40px; }
.detail h4 { margin: 14px 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.message { margin: 0 0 6px; font-weight: 600; }
.s-failed .message { color: var(--fail); } .s-error .message { color: var(--err); } .s-skipped .message { color: var(--skip); }
.s-warning .message { color: var(--warn); }
.badge { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 11px; font-weight: 600; text-transform: uppercase;
  color: var(--warn); background: var(--warn-bg); border: 1px solid var(--warn); }
.specs { margin: 0 0 8px; color: var(--muted); }
ol.observations { margin: 0; padding-inline-start: 20px; }
ol.observations > li { margin: 0 0 12px; }
.obs-msg { margin: 0 0 4px; }
dl.ev { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; margin: 0; }
dl.ev dt { color: var(--muted); }
dl.ev dd { margin: 0; min-width: 0; }
pre { margin: 0; padding: 8px 10px; background: var(--code); border: 1px solid var(--border); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28em; overflow: auto; unicode-bidi: plaintext; }
dl.ev pre { padding: 3px 8px; }
pre:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.cmd { position: relative; }
.cmd pre { padding-inline-end: 70px; }
.copy { position: absolute; top: 6px; inset-inline-end: 6px; font: inherit; font-size: 12px; padding: 2px 8px; cursor: pointer;
  color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 6px; }
details.exchange { margin: 8px 0; border: 1px solid var(--border); border-radius: 6px; }
details.exchange > summary { padding: 5px 10px; cursor: pointer; }
details.exchange[open] > summary { border-bottom: 1px solid var(--border); }
.exchange-body { padding: 8px 10px; display: grid; gap: 8px; }
.exchange-body h5 { margin: 4px 0 2px; font-size: 12px; color: var(--muted); }
.status-code { font-weight: 600; }
.note { color: var(--muted); font-size: 12px; margin: 2px 0 0; }
.empty { color: var(--muted); padding: 20px 0; }
footer { color: var(--muted); font-size: 12px; border-top: 1px solid var(--border); padding: 12px 0 24px; }
@media print { nav.toolbar { display: none; } pre { max-height: none; } }
`;

/** Filters need the script; without it the toolbar would be buttons that do nothing. */
export const HTML_NO_SCRIPT_STYLE = 'html:not(.js) nav.toolbar { display: none; }';
