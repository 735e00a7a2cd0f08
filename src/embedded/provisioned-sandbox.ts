// The embedded sandbox started and its partner provisioned, wherever it runs: in this thread
// (embedded-target.ts, for tests) or in its own (sandbox-thread.ts).

import { startSandbox, type Provision, type RunningSandbox, type SandboxOptions } from '../sandbox/index.js';
import type { ThreadStart } from './thread-protocol.js';

export interface ProvisionedSandbox {
  sandbox: RunningSandbox;
  provision: Provision;
  /** Registers the provisioned partner's webhook URL (null: none), as its operator would. */
  setWebhookUrl(url: string | null): void;
}

export async function startProvisionedSandbox(start: ThreadStart): Promise<ProvisionedSandbox> {
  const sandbox = await startSandbox(start.sandbox satisfies SandboxOptions);
  try {
    const provision = sandbox.provision(start.provision);
    const partnerId = sandbox.operator.partnerIdForKey(provision.partner_key);
    if (!partnerId) throw new Error('embedded sandbox: the provisioned partner key is unknown to its operator');
    return { sandbox, provision, setWebhookUrl: (url) => sandbox.operator.setWebhookUrl(partnerId, url) };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}
