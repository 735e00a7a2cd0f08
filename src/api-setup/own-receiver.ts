// The temporary webhook receiver `run` starts for a target it does not own, from the configuration.
// Kept apart from certify() so the two ways it once went wrong stay tested: an IPv6 --webhook-listen
// (`[::1]:8787`) must reach the receiver with its brackets, and --webhook-public-url must reach the
// receiver too, or a planned 3xx points at the loopback address behind a tunnel.

import type { Config } from '../config/config.js';
import type { ReceiverOptions, WebhookReceiver } from '../webhook/receiver.js';

/** `host:port` as the receiver parses it; an IPv6 host is written in brackets. */
export function formatListen(listen: { host: string; port: number }): string {
  return `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
}

export function receiverOptionsFor(config: Config, secret: string): ReceiverOptions {
  return {
    secret,
    ...(config.webhookListen ? { listen: formatListen(config.webhookListen) } : {}),
    ...(config.webhookTls ? { tls: { cert: config.webhookTls.cert, key: config.webhookTls.key } } : {}),
    ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
  };
}

export async function startOwnReceiver(
  config: Config,
  secret: string,
): Promise<{ receiver: WebhookReceiver; publicUrl: string }> {
  const { startWebhookReceiver } = await import('../webhook/receiver.js');
  const receiver = await startWebhookReceiver(receiverOptionsFor(config, secret));
  return { receiver, publicUrl: config.webhookPublicUrl ?? receiver.url };
}
