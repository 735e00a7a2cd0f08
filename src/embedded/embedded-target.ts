// `svc-certify run` with no --base-url: the reference sandbox on loopback, a provisioned partner, and
// the temporary webhook receiver registered as that partner's URL. The sandbox runs in a thread of its
// own (sandbox-thread.ts): on one event loop with the certifier, a loaded machine made it answer fewer
// requests in a rate window than the limit and miss its webhook retry times, so the verdict depended
// on the load. Tests that reach into the sandbox's state run it in this thread instead.

import { Worker } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import type { Provision, RunningSandbox } from '../sandbox/index.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import type { ThreadReply, ThreadRequest, ThreadStart } from './thread-protocol.js';

export interface EmbeddedTarget {
  /** The sandbox itself, when it runs in this thread (`thread: 'in-process'`); absent in a worker. */
  sandbox?: RunningSandbox;
  /** What the provision gave, as configuration values (flags given by the user for these are ignored). */
  config: Config;
  webhooks: { receiver: WebhookReceiver; publicUrl: string };
  /** Registers another webhook URL for the provisioned partner (null: none), as its operator would. */
  setWebhookUrl(url: string | null): Promise<void>;
  close(): Promise<void>;
}

export interface EmbeddedTargetOptions {
  timeScale: number;
  rateLimit: number;
  faults?: string[];
  /** Conformant variants to switch on (tests: the variant matrix). */
  variants?: string[];
  /** Unused activation codes to provision (default 4: the full catalogue with --exhaust-limits). */
  codes?: number;
  /** Sandbox mode (default 'sandbox'); tests certify a production-mode sandbox too. */
  mode?: 'sandbox' | 'production';
  /** Success status of upserts and decisions (the spec leaves it open); tests vary it. */
  createdStatus?: 200 | 201 | 202;
  /** Production mode: each new organization's starting wallet (tests: one too low to pay a reveal). */
  walletCredits?: number;
  /**
   * Where the sandbox runs (default 'worker'). 'in-process' shares this thread's event loop and exposes
   * `sandbox`: for tests run from the TypeScript sources, where no built worker file exists.
   */
  thread?: 'worker' | 'in-process';
}

/** The sandbox as the target uses it, wherever it runs. */
interface SandboxHandle {
  provision: Provision;
  sandbox?: RunningSandbox;
  setWebhookUrl(url: string | null): Promise<void>;
  close(): Promise<void>;
}

export async function startEmbeddedTarget(base: Config, opts: EmbeddedTargetOptions): Promise<EmbeddedTarget> {
  const { startWebhookReceiver } = await import('../webhook/receiver.js');
  const start: ThreadStart = {
    sandbox: {
      host: '127.0.0.1',
      port: 0,
      timeScale: opts.timeScale,
      rateLimitPerMinute: opts.rateLimit,
      allowLoopbackWebhooks: true,
      // The certifier's idle timer runs on its own busy thread: it alone closes idle connections.
      clientClosesIdle: true,
      ...(opts.faults ? { faults: opts.faults } : {}),
      ...(opts.variants ? { variants: opts.variants } : {}),
      ...(opts.mode ? { mode: opts.mode } : {}),
      ...(opts.createdStatus ? { createdStatus: opts.createdStatus } : {}),
      ...(opts.walletCredits !== undefined ? { initialWalletBalance: opts.walletCredits } : {}),
    },
    // Four codes, what `serve --provision` hands out: the primary organization, the typed redemption
    // (normalization, single use, the isolation checks' second organization), external_id_taken, and
    // the quota check of --exhaust-limits (src/api-setup/code-plan.ts). Every test certifies with them.
    provision: { codes: opts.codes ?? 4, rateLimitPerMinute: opts.rateLimit },
  };
  const handle = opts.thread === 'in-process' ? await inThisThread(start) : await inWorker(start);
  const p = handle.provision;
  let receiver: WebhookReceiver | undefined;
  try {
    receiver = await startWebhookReceiver({ secret: p.webhook_secret, listen: '127.0.0.1:0' });
    await handle.setWebhookUrl(receiver.url);
    const config: Config = {
      ...base,
      baseUrl: p.base_url,
      partnerKey: p.partner_key,
      // The gate spends no code: it works in an organization already connected, as on a real target.
      orgToken: base.gate ? p.org_token : undefined,
      activationCodes: base.gate ? [] : p.activation_codes,
      expiredCode: p.expired_code,
      disabledOrgToken: p.disabled_org_token,
      disabledPartnerKey: p.disabled_partner_key,
      otherPartnerKey: p.other_partner_key,
      webhookSecret: p.webhook_secret,
      webhookPublicUrl: receiver.url,
    };
    const r = receiver;
    return {
      ...(handle.sandbox ? { sandbox: handle.sandbox } : {}),
      config,
      webhooks: { receiver: r, publicUrl: r.url },
      setWebhookUrl: (url) => handle.setWebhookUrl(url),
      async close() {
        await r.close().catch(() => undefined);
        await handle.close();
      },
    };
  } catch (e) {
    await receiver?.close().catch(() => undefined);
    await handle.close();
    throw e;
  }
}

async function inThisThread(start: ThreadStart): Promise<SandboxHandle> {
  const { startProvisionedSandbox } = await import('./provisioned-sandbox.js');
  const { sandbox, provision, setWebhookUrl } = await startProvisionedSandbox(start);
  return {
    provision,
    sandbox,
    setWebhookUrl: (url) => Promise.resolve(setWebhookUrl(url)),
    close: () => sandbox.close(),
  };
}

/** The sandbox in a worker thread (sandbox-thread.ts, beside this file in the build). */
function inWorker(start: ThreadStart): Promise<SandboxHandle> {
  const worker = new Worker(new URL('./sandbox-thread.js', import.meta.url), { workerData: start });
  const pending = new Map<number, { resolve: (r: ThreadReply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let ended: Error | undefined;
  const failAll = (e: Error): void => {
    ended ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (reply: ThreadReply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    p?.resolve(reply);
  });
  worker.on('error', (e) => failAll(new Error(`embedded sandbox thread: ${e.message}`)));
  worker.on('exit', (code) => failAll(new Error(`embedded sandbox thread: ended (exit code ${code})`)));
  const ask = (id: number): Promise<ThreadReply> =>
    ended
      ? Promise.reject(ended)
      : new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
        });
  const call = async (request: ThreadRequest): Promise<void> => {
    const answer = ask(request.id);
    worker.postMessage(request);
    const reply = await answer;
    if (!reply.ok) throw new Error(reply.error);
  };
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      try {
        if (!ended) await call({ id: nextId++, op: 'close' });
      } finally {
        await worker.terminate();
      }
    })());
  return ask(0).then(
    async (reply) => {
      if (!reply.ok || !reply.provision) {
        await worker.terminate();
        throw new Error(reply.ok ? 'embedded sandbox thread: started without a provision' : reply.error);
      }
      return {
        provision: reply.provision,
        setWebhookUrl: (url) => call({ id: nextId++, op: 'set-webhook-url', url }),
        close,
      };
    },
    async (e: unknown) => {
      await worker.terminate();
      throw e;
    },
  );
}
