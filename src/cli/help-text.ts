// Examples shown by --help: what a user actually asks (certify the sandbox, a real deployment,
// gate a CI job, develop offline).

import { INJECTION_POINTS } from '../partner/injection-points.js';

/** The verdicts' exit codes (docs/design.md, *Verdict*), the same for every certifying command. */
const EXIT_CODES = `Exit codes: 0 certified (or a --suite/--grep selection passed), 1 not certified (a check failed;
with --strict also a warning or an incomplete run), 2 usage or configuration error (in CI: no target),
target unreachable or not this API, report folder not writable (the reports say verdict "error" and
why), 3 incomplete (inputs or traffic missing, or a set-up that does not work: the verdict says which),
130/143 interrupted by SIGINT/SIGTERM (reports still written).`;

export const PROGRAM_EXAMPLES = `
Examples:
  # certify the embedded reference sandbox (no flags, about ten seconds; in CI add --embedded)
  $ npx svc-certify run

  # certify a deployment before it goes live
  $ SVC_PARTNER_KEY=spk_live_… svc-certify run --base-url https://api.example.com/v1 \\
      --activation-code SVC-ABCD-EFGH --activation-code SVC-JKMN-PQRS

  # develop offline against a local emulator
  $ svc-certify serve --port 8080 --provision provision.json

${EXIT_CODES}
`;

export const RUN_EXAMPLES = `
Every option also reads an environment variable (shown) or the key of the same name in
svc-certify.config.json in the working directory (camelCase, e.g. "baseUrl", "activationCode");
precedence: flag > environment > file > default.

Examples:
  # the embedded sandbox, accelerated (time scale 60); in CI (CI set) a missing target is exit 2
  # unless the sandbox is asked for
  $ svc-certify run
  $ svc-certify run --embedded

  # a real deployment
  $ export SVC_PARTNER_KEY=spk_live_…
  $ svc-certify run --base-url https://sandbox.example.com/v1 \\
      --activation-code SVC-ABCD-EFGH --activation-code SVC-JKMN-PQRS \\
      --webhook-secret "$SVC_WEBHOOK_SECRET" --webhook-listen 0.0.0.0:8787 \\
      --webhook-public-url https://hooks.example.com/svc

  # a CI gate: JUnit for the CI, warnings and missing inputs count as failures, reuse an org token
  $ SVC_BASE_URL=https://sandbox.example.com/v1 SVC_ORG_TOKEN=sot_… \\
      svc-certify run --strict --reporter console,junit,json --report-dir build/certify

  # just the authentication checks
  $ svc-certify run --suite auth

  # accept known failures until a date (stale or expired entries fail the run)
  $ svc-certify run --baseline known-failures.json

${EXIT_CODES}
`;

export const LIST_EXAMPLES = `
Examples:
  $ svc-certify list                      # every check of every command, grouped by suite
  $ svc-certify list --command partner    # the partner rules (also: run, receiver, scan)
  $ svc-certify list --suite auth         # one suite
  $ svc-certify list --json | jq '.checks[].id'   # for tools
  $ svc-certify list --grep 401           # checks whose id or title contains the text
  $ svc-certify list --by-spec            # spec section → checks, and why a section has none
`;

export const SERVE_EXAMPLES = `
Examples:
  # a local sandbox plus the credentials a certifier needs
  $ svc-certify serve --port 8080 --provision provision.json

  # deliver webhooks to a local receiver (the operator's loopback switch)
  $ svc-certify serve --provision p.json --webhook-url http://127.0.0.1:8787/hooks --allow-loopback-webhooks

  # then certify it from another shell
  $ svc-certify run --base-url "$(jq -r .base_url p.json)" --partner-key "$(jq -r .partner_key p.json)" …

  # a sandbox with a deliberate defect, to see a check fail
  $ svc-certify serve --list-faults
  $ svc-certify serve --fault <id>

  # a conformant server that makes another allowed choice (no check may fail it)
  $ svc-certify serve --list-variants
  $ svc-certify serve --variant users.strict-role-list --variant json.pretty-printed
`;

export const VERIFY_EXAMPLES = `
Examples:
  # the partner signed its certification with: svc-certify run --sign-key sign-key.pem
  $ svc-certify verify reports/certification.intoto.json --key partner-public.pem --results reports/results.json

Exit 0 only for a valid signature over a certified record (and, with --results, that file is the
one signed); 1 for anything else, with the reason; 2 for a usage error (a missing file, an unreadable key).
`;

export const BASELINE_EXAMPLES = `
Examples:
  # adopt the failures of today's run as known (edit each "reason"), then gate on anything new
  $ svc-certify baseline reports/results.json > known-failures.json
  $ svc-certify run --baseline known-failures.json

A listed check that now passes, an entry past its "until", or an unknown id fails the run:
remove or renew the entry. The baseline only ever shrinks.
`;

export const SCAN_EXAMPLES = `
Searches files and folders (recursively) for the strings spk_ and sot_ (Authentication, rule 7):
any text, minified bundles (line and column), source maps (by source name), .gz and .br files,
and HAR files (every URL, header, cookie, postData and response body, base64 bodies decoded).

Examples:
  # the built frontend and a HAR of a browser session, before go-live
  $ svc-certify scan dist/ session.har --reporter console,json,sarif

${EXIT_CODES}
(scan: findings fail; a path that does not exist, cannot be read, or is a pipe or device is exit 2)
`;

export const RECEIVER_EXAMPLES = `
Sends signed deliveries to a webhook endpoint as the service would (the three events, unknown
fields, an unknown event, a repeated event_id, unusual JSON formatting), and deliveries it must
refuse with 401 (another secret, no signature, a truncated signature, a body changed after signing).

Examples:
  # a staging endpoint
  $ SVC_WEBHOOK_SECRET=… svc-certify receiver --url https://staging.partner.example/hooks/svc

  # a local receiver on plain http, or a staging certificate that is self-signed
  $ svc-certify receiver --url http://127.0.0.1:3000/hooks/svc --allow-private
  $ svc-certify receiver --url https://staging.partner.example/hooks/svc --insecure

${EXIT_CODES}
(receiver: no URL, no secret, an endpoint that is down or whose TLS does not verify is exit 2;
--allow-private leaves the URL rule unjudged: incomplete)
`;

export const PARTNER_EXAMPLES = `
Injections (each fires once per session; --no-inject turns them all off, --skip-injection ID one of them),
so that the retry rules and the handling of unknown values are observable:
${INJECTION_POINTS.map((p) => `  ${p.id}: ${p.summary}`).join('\n')}

The judge divides the spec's durations by --time-scale (polling every 5 s -> 5/N s, backoff from 1 s ->
1/N s); a Retry-After is judged as sent, in real seconds. A rule the traffic never exercised ends skipped,
with what to do to exercise it (--strict fails it).

Examples:
  # certify a partner's staging: it reads p.json, then exercises its integration; Ctrl-C writes the reports
  $ svc-certify partner --provision p.json --webhook-url https://staging.partner.example/svc-hooks

  # a local partner client, accelerated 60x, ending after 10 minutes, for a CI job
  $ svc-certify partner --provision p.json --time-scale 60 --duration 10m \\
      --webhook-url http://127.0.0.1:8787/hooks --allow-loopback-webhooks --reporter console,junit,json

${EXIT_CODES}
(partner: the first Ctrl-C/SIGTERM or the end of --duration is the normal end of the session;
rules never exercised leave it incomplete; a second signal during the shutdown interrupts it)
`;

export const REPORT_EXAMPLES = `
Examples:
  # one dossier for the operator: the service and the partner's side, one verdict
  $ svc-certify report service/results.json scan/results.json receiver/results.json --report-dir dossier

  # re-render one run's reports (byte-identical), or add a format
  $ svc-certify report reports/results.json --report-dir reports --reporter html,markdown

${EXIT_CODES}
(report: the worst part decides)
`;
