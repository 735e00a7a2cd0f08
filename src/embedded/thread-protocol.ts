// The messages between the embedded target and its sandbox thread (sandbox-thread.ts): what starts it,
// and one request and reply per operator call. Reply 0 answers the start, carrying the provision.

import type { Provision, SandboxOptions } from '../sandbox/index.js';

/** Only what crosses a thread: plain values (no log sink, no hooks). */
export interface ThreadStart {
  sandbox: Omit<SandboxOptions, 'log' | 'hooks'>;
  provision: { codes: number; rateLimitPerMinute: number };
}

export type ThreadRequest = { id: number; op: 'set-webhook-url'; url: string | null } | { id: number; op: 'close' };

export type ThreadReply = { id: number; ok: true; provision?: Provision } | { id: number; ok: false; error: string };
