// node:http adapter of the sandbox app, and the public startSandbox / listFaults.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSandboxApp, MAX_BODY_BYTES, type SandboxApp } from './app.js';
import { boundedBody, drainRest, type DrainAllowance } from './body-limit.js';
import { clientErrorHandler } from './client-error.js';
import { FAULTS, type FaultDefinition } from './faults/index.js';
import type { SandboxHooks } from './hooks.js';
import type { RunningSandbox, SandboxOptions } from './public-types.js';
import { applyBodyVariants, contentTypeFor } from './variants/apply.js';
import { VARIANTS, type VariantDefinition } from './variants/index.js';

/** Variant http.added-latency: every answer waits this long. */
const ADDED_LATENCY_MS = 150;

export function listVariants(): VariantDefinition[] {
  return VARIANTS.map((v) => ({ ...v, ...(v.warns ? { warns: [...v.warns] } : {}) }));
}

/** After an early 413: how much more of the body is read and dropped, and for how long, before closing. */
const DRAIN: DrainAllowance = { maxBytes: 16 * MAX_BODY_BYTES, maxMs: 2_000 };

/** How long a connection refused by node's parser lingers after its answer. */
const REFUSAL_LINGER_MS = 1_000;

export function listFaults(): FaultDefinition[] {
  // What a fault is, without how it acts (its transforms are the sandbox's own business).
  return FAULTS.map(({ acts: _acts, ...f }) => f);
}

interface Adapter {
  app: SandboxApp;
  hooks: SandboxHooks;
  /** Ids of requests the embedder answered through `hooks.simulate`. */
  simulated: Set<number>;
  nextId: number;
  /** The latest response of each connection (read by the clientError handler). */
  responses: WeakMap<Duplex, ServerResponse>;
}

function onRequest(adapter: Adapter, req: IncomingMessage, res: ServerResponse): void {
  const { app, hooks } = adapter;
  const id = adapter.nextId++;
  const receivedAt = Date.now();
  adapter.responses.set(req.socket, res);
  const received = boundedBody(MAX_BODY_BYTES);
  let answered = false;
  const answer = (body: Buffer | undefined) => {
    if (answered) return;
    answered = true;
    const request = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      ...(body ? { body } : {}),
      id,
    };
    let out = app.handle(request);
    const simulated = adapter.simulated.delete(id);
    const verdict = hooks.deliver?.(request, out) ?? 'send';
    if (typeof verdict === 'object')
      out = { status: verdict.replace.status, headers: { ...verdict.replace.headers }, body: verdict.replace.body };
    const dropped = verdict === 'drop';
    const sent = out;
    const observe = (): void =>
      hooks.observe?.({
        kind: 'exchange',
        request,
        receivedAt,
        answeredAt: Date.now(),
        status: sent.status,
        responseHeaders: sent.headers,
        responseBody: sent.body,
        dropped,
        simulated,
      });
    if (dropped) {
      // The request was executed; its answer is lost on the way, as a cut connection loses it.
      req.socket.destroy();
      observe();
      return;
    }
    const variants = app.context.config.variants;
    const write = (): void => {
      if (variants.has('http.chunked-bodies')) {
        // No length: node frames the body as chunks; two writes make two chunks.
        res.writeHead(sent.status, sent.headers);
        const half = sent.body.length >> 1;
        res.write(sent.body.subarray(0, half));
        res.end(sent.body.subarray(half));
      } else {
        sent.headers['content-length'] = String(sent.body.length);
        res.writeHead(sent.status, sent.headers);
        res.end(sent.body);
      }
      observe();
    };
    if (variants.has('http.added-latency')) setTimeout(write, ADDED_LATENCY_MS).unref();
    else write();
  };
  req.on('data', (chunk: Buffer) => {
    if (answered || !received.add(chunk)) return;
    // Over the limit: answered now (the app sees limit + 1 bytes and refuses them, executing nothing)
    // rather than after an upload that may be huge or never end.
    answer(received.bytes());
    drainRest(req, res, DRAIN);
  });
  req.on('end', () => answer(received.bytes()));
  req.on('error', () => {
    answered = true;
  });
}

/** The embedder's hooks, noting which requests `simulate` answered (the exchange says so). */
function withSimulatedIds(hooks: SandboxHooks, simulated: Set<number>): SandboxHooks {
  if (!hooks.simulate) return hooks;
  const simulate = hooks.simulate.bind(hooks);
  return {
    ...hooks,
    simulate(req) {
      const answer = simulate(req);
      if (answer) simulated.add(req.id);
      return answer;
    },
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const hooks = opts.hooks;
  const simulated = new Set<number>();
  const app = createSandboxApp({
    mode: opts.mode,
    timeScale: opts.timeScale,
    rateLimitPerMinute: opts.rateLimitPerMinute,
    faults: opts.faults,
    variants: opts.variants,
    allowLoopbackWebhooks: opts.allowLoopbackWebhooks,
    createdStatus: opts.createdStatus,
    seed: opts.seed,
    ...(opts.initialWalletBalance !== undefined ? { initialWalletBalance: opts.initialWalletBalance } : {}),
    log: opts.log,
    ...(hooks ? { hooks: withSimulatedIds(hooks, simulated) } : {}),
  });
  const adapter: Adapter = { app, hooks: hooks ?? {}, simulated, nextId: 1, responses: new WeakMap() };
  // 0: no idle time-out and no Keep-Alive hint, so the client's own idle timer alone decides.
  const keepAliveTimeout = opts.clientClosesIdle ? 0 : 10_000;
  const server = createServer({ keepAliveTimeout }, (req, res) => onRequest(adapter, req, res));
  const variants = app.context.config.variants;
  server.on(
    'clientError',
    clientErrorHandler({
      sandboxHeader: app.context.config.mode === 'sandbox',
      contentType: contentTypeFor(variants),
      encodeBody: (bytes, status) => (variants.size > 0 ? applyBodyVariants(bytes, status, variants) : bytes),
      responses: adapter.responses,
      lingerMs: REFUSAL_LINGER_MS,
    }),
  );
  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await app.close();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const baseUrl = `http://${urlHost}:${port}/v1`;
  let closed = false;
  return {
    baseUrl,
    operator: app.operator,
    provision: (p) => app.operator.provision(baseUrl, p).provision,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
