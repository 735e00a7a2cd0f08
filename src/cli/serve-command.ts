// `svc-certify serve`: the reference sandbox as a local, stateful emulator until SIGINT/SIGTERM.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';

export interface ServeFlags {
  host?: string;
  port?: string;
  mode?: string;
  timeScale?: string;
  rateLimit?: string;
  provision?: string;
  webhookUrl?: string;
  allowLoopbackWebhooks?: boolean;
  fault?: string[];
  listFaults?: boolean;
  variant?: string[];
  listVariants?: boolean;
}

export async function serveCommand(flags: ServeFlags, out: (line: string) => void): Promise<number> {
  const { listFaults, listVariants, startSandbox } = await import('../sandbox/index.js');
  const faults = listFaults();
  if (flags.listFaults) {
    const width = Math.max(0, ...faults.map((f) => f.id.length));
    for (const f of faults) out(`${f.id.padEnd(width)}  ${f.summary}`);
    return 0;
  }
  const variants = listVariants();
  if (flags.listVariants) {
    const width = Math.max(0, ...variants.map((v) => v.id.length));
    for (const v of variants) out(`${v.id.padEnd(width)}  ${v.summary}${v.warns ? ` (warns: ${v.warns.join(', ')})` : ''}`);
    return 0;
  }

  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${flags.port}")`);
  }
  const mode = flags.mode ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') throw new UsageError(`--mode must be sandbox or production (got "${mode}")`);
  const timeScale = flags.timeScale === undefined ? 1 : Number(flags.timeScale);
  if (!Number.isFinite(timeScale) || timeScale <= 0) throw new UsageError(`--time-scale must be a number > 0 (got "${flags.timeScale}")`);
  const rateLimit = flags.rateLimit === undefined ? 120 : Number(flags.rateLimit);
  if (!Number.isInteger(rateLimit) || rateLimit < 1) {
    throw new UsageError(`--rate-limit must be a whole number of requests per minute >= 1 (got "${flags.rateLimit}")`);
  }
  if (flags.webhookUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(flags.webhookUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`--webhook-url must be an absolute http(s) URL (got "${flags.webhookUrl}")`);
  }
  const known = new Set(faults.map((f) => f.id));
  const wanted = flags.fault ?? [];
  for (const id of wanted) {
    if (!known.has(id)) throw new UsageError(`unknown fault "${id}"; see: svc-certify serve --list-faults`);
  }

  const knownVariants = new Set(variants.map((v) => v.id));
  const wantedVariants = flags.variant ?? [];
  for (const id of wantedVariants) {
    if (!knownVariants.has(id)) throw new UsageError(`unknown variant "${id}"; see: svc-certify serve --list-variants`);
  }

  const sandbox = await startSandbox({
    host: flags.host ?? '127.0.0.1',
    port,
    mode,
    timeScale,
    rateLimitPerMinute: rateLimit,
    faults: wanted,
    variants: wantedVariants,
    allowLoopbackWebhooks: flags.allowLoopbackWebhooks ?? false,
  }).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot start the sandbox on ${flags.host ?? '127.0.0.1'}:${port}: ${e.code ?? e.message}`);
  });

  try {
    if (flags.provision !== undefined || flags.webhookUrl !== undefined) {
      let provision;
      try {
        provision = sandbox.provision({ ...(flags.webhookUrl ? { webhookUrl: flags.webhookUrl } : {}), rateLimitPerMinute: rateLimit });
      } catch (e) {
        throw new UsageError(`cannot provision the sandbox: ${(e as Error).message}`);
      }
      if (flags.provision !== undefined) {
        const file = resolve(flags.provision);
        try {
          // It holds the partner key and webhook secret: readable by the owner only.
          writeFileSync(file, `${JSON.stringify(provision, null, 2)}\n`, { mode: 0o600 });
        } catch (e) {
          throw new UsageError(`--provision: cannot write "${flags.provision}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        }
        out(`provision written to ${file}`);
      }
      if (flags.webhookUrl) out(`webhooks go to ${flags.webhookUrl}`);
    }
    const extras = [wanted.length ? `faults: ${wanted.join(', ')}` : '', wantedVariants.length ? `variants: ${wantedVariants.join(', ')}` : ''].filter(Boolean);
    out(`svc-certify sandbox (${[mode, ...extras].join(', ')}) listening on ${sandbox.baseUrl}`);
    out('press Ctrl-C to stop');
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    return 0;
  } finally {
    await sandbox.close();
  }
}
