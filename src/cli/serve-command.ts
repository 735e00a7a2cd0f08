// `svc-certify serve`: the reference sandbox as a local, stateful emulator until SIGINT/SIGTERM.

import { resolve } from 'node:path';
import { resolveOptions, type Env, type ResolvedOptions } from '../config/resolve-options.js';
import { parseSandboxFlags, SERVE_OPTIONS, writeProvisionFile } from './sandbox-options.js';
import { UsageError } from './usage-error.js';
import { exitCodeOfSignal, watchSignals } from './signals.js';
import { errorMessage } from '../narrow.js';

type ServeOptions = ResolvedOptions<typeof SERVE_OPTIONS>;
type Sandbox = Awaited<ReturnType<typeof import('../sandbox/index.js').startSandbox>>;

/** A catalogue (--list-faults, --list-variants): each id padded to the longest, then its summary. */
function printCatalogue(entries: ReadonlyArray<{ id: string; summary: string }>, out: (line: string) => void): void {
  const width = Math.max(0, ...entries.map((e) => e.id.length));
  for (const e of entries) out(`${e.id.padEnd(width)}  ${e.summary}`);
}

/** The ids asked for (--fault, --variant), each checked against its catalogue before anything starts. */
function knownIds(
  kind: 'fault' | 'variant',
  wanted: readonly string[],
  catalogue: ReadonlyArray<{ id: string }>,
): string[] {
  const known = new Set(catalogue.map((entry) => entry.id));
  for (const id of wanted) {
    if (!known.has(id)) throw new UsageError(`unknown ${kind} "${id}"; see: svc-certify serve --list-${kind}s`);
  }
  return [...wanted];
}

/** --provision and --webhook-url: the sandbox provisioned once, its credentials written where asked. */
function provisionAsked(
  sandbox: Sandbox,
  o: ServeOptions,
  { webhookUrl, rateLimit }: { webhookUrl: string | undefined; rateLimit: number },
  out: (line: string) => void,
): void {
  const provisionFile = o.get('provision');
  if (provisionFile === undefined && webhookUrl === undefined) return;
  let provision;
  try {
    provision = sandbox.provision({ ...(webhookUrl ? { webhookUrl } : {}), rateLimitPerMinute: rateLimit });
  } catch (e) {
    throw new UsageError(`cannot provision the sandbox: ${errorMessage(e)}`);
  }
  if (provisionFile !== undefined) {
    const file = resolve(provisionFile);
    writeProvisionFile(file, provisionFile, provision);
    out(`provision written to ${file}`);
  }
  if (webhookUrl) out(`webhooks go to ${webhookUrl}`);
}

/**
 * The first signal is serve's normal end (exit 0 once closed); a second one while the sandbox waits
 * for open connections to finish stops waiting (exit 130/143).
 */
async function serveUntilSignalled(sandbox: Sandbox): Promise<number> {
  const signals = watchSignals();
  try {
    await signals.first;
    const cut = await Promise.race([sandbox.close().then(() => undefined), signals.second]);
    return cut ? exitCodeOfSignal(cut) : 0;
  } finally {
    signals.dispose();
  }
}

export async function serveCommand(
  flags: Record<string, unknown>,
  out: (line: string) => void,
  env: Env = process.env,
): Promise<number> {
  // Every flag and variable is validated before anything starts, --list-faults included.
  const o = resolveOptions(SERVE_OPTIONS, { flags, env });
  const { host, port, mode, timeScale, rateLimit, webhookUrl, allowLoopbackWebhooks } = parseSandboxFlags(flags, env);
  const { listFaults, listVariants, startSandbox } = await import('../sandbox/index.js');
  const faults = listFaults();
  if (o.get('listFaults')) {
    printCatalogue(faults, out);
    return 0;
  }
  const variants = listVariants();
  if (o.get('listVariants')) {
    printCatalogue(
      variants.map((v) => ({ id: v.id, summary: `${v.summary}${v.warns ? ` (warns: ${v.warns.join(', ')})` : ''}` })),
      out,
    );
    return 0;
  }
  const wanted = knownIds('fault', o.get('fault') ?? [], faults);
  const wantedVariants = knownIds('variant', o.get('variant') ?? [], variants);

  const sandbox = await startSandbox({
    host,
    port,
    mode,
    timeScale,
    rateLimitPerMinute: rateLimit,
    faults: wanted,
    variants: wantedVariants,
    allowLoopbackWebhooks,
  }).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot start the sandbox on ${host}:${port}: ${e.code ?? e.message}`);
  });

  try {
    provisionAsked(sandbox, o, { webhookUrl, rateLimit }, out);
    const extras = [
      wanted.length ? `faults: ${wanted.join(', ')}` : '',
      wantedVariants.length ? `variants: ${wantedVariants.join(', ')}` : '',
    ].filter(Boolean);
    out(`svc-certify sandbox (${[mode, ...extras].join(', ')}) listening on ${sandbox.baseUrl}`);
    out('press Ctrl-C to stop');
    return await serveUntilSignalled(sandbox);
  } finally {
    await Promise.race([sandbox.close(), new Promise((r) => setTimeout(r, 100).unref())]);
  }
}
