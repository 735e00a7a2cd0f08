// `svc-certify serve`: the reference sandbox as a local, stateful emulator until SIGINT/SIGTERM.

import { resolve } from 'node:path';
import { resolveOptions, type Env } from '../config/resolve-options.js';
import { parseSandboxFlags, SERVE_OPTIONS, writeProvisionFile } from './sandbox-options.js';
import { UsageError } from './usage-error.js';
import { exitCodeOfSignal, watchSignals } from './signals.js';
import { errorMessage } from '../narrow.js';

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
    const width = Math.max(0, ...faults.map((f) => f.id.length));
    for (const f of faults) out(`${f.id.padEnd(width)}  ${f.summary}`);
    return 0;
  }
  const variants = listVariants();
  if (o.get('listVariants')) {
    const width = Math.max(0, ...variants.map((v) => v.id.length));
    for (const v of variants)
      out(`${v.id.padEnd(width)}  ${v.summary}${v.warns ? ` (warns: ${v.warns.join(', ')})` : ''}`);
    return 0;
  }

  const known = new Set(faults.map((f) => f.id));
  const wanted = o.get('fault') ?? [];
  for (const id of wanted) {
    if (!known.has(id)) throw new UsageError(`unknown fault "${id}"; see: svc-certify serve --list-faults`);
  }

  const knownVariants = new Set(variants.map((v) => v.id));
  const wantedVariants = o.get('variant') ?? [];
  for (const id of wantedVariants) {
    if (!knownVariants.has(id)) throw new UsageError(`unknown variant "${id}"; see: svc-certify serve --list-variants`);
  }

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
    const provisionFile = o.get('provision');
    if (provisionFile !== undefined || webhookUrl !== undefined) {
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
    const extras = [
      wanted.length ? `faults: ${wanted.join(', ')}` : '',
      wantedVariants.length ? `variants: ${wantedVariants.join(', ')}` : '',
    ].filter(Boolean);
    out(`svc-certify sandbox (${[mode, ...extras].join(', ')}) listening on ${sandbox.baseUrl}`);
    out('press Ctrl-C to stop');
    // The first signal is serve's normal end (exit 0 once closed); a second one while the sandbox waits
    // for open connections to finish stops waiting (exit 130/143).
    const signals = watchSignals();
    try {
      await signals.first;
      const cut = await Promise.race([sandbox.close().then(() => undefined), signals.second]);
      return cut ? exitCodeOfSignal(cut) : 0;
    } finally {
      signals.dispose();
    }
  } finally {
    await Promise.race([sandbox.close(), new Promise((r) => setTimeout(r, 100).unref())]);
  }
}
