// The embedded sandbox in a thread of its own (a worker_threads Worker started by embedded-target.ts):
// the sandbox's timers and answers no longer wait behind the certifier's work on one event loop, so a
// busy machine slows both alike instead of the sandbox missing its own rate windows and retry times.
// It starts the sandbox, provisions the partner, and then answers the few operator calls the embedder
// makes (the partner's webhook URL, close), one message each.

import { parentPort, workerData } from 'node:worker_threads';
import { startProvisionedSandbox } from './provisioned-sandbox.js';
import type { ThreadReply, ThreadRequest, ThreadStart } from './thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('sandbox-thread.ts runs only as a worker thread (see embedded-target.ts)');

const start = workerData as ThreadStart;
const reply = (message: ThreadReply): void => port.postMessage(message);
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

try {
  const { sandbox, provision, setWebhookUrl } = await startProvisionedSandbox(start);
  port.on('message', (request: ThreadRequest) => {
    void (async () => {
      try {
        if (request.op === 'set-webhook-url') setWebhookUrl(request.url);
        else await sandbox.close();
        reply({ id: request.id, ok: true });
      } catch (e) {
        reply({ id: request.id, ok: false, error: errorText(e) });
      }
    })();
  });
  reply({ id: 0, ok: true, provision });
} catch (e) {
  reply({ id: 0, ok: false, error: errorText(e) });
}
