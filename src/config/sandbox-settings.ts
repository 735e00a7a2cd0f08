// The validated settings of a sandbox that `serve` and `partner` run (parsed from their shared options
// in src/cli/sandbox-options.ts); here, below both, because partner's session records them too.

export interface SandboxSettings {
  host: string;
  port: number;
  mode: 'sandbox' | 'production';
  timeScale: number;
  rateLimit: number;
  webhookUrl?: string;
  allowLoopbackWebhooks: boolean;
}
