// `--webhook-listen HOST:PORT` bound and released before anything is spent: a busy port or an address
// this machine does not have is exit 2 with one line, not an internal error after the certification
// has redeemed its activation codes.

import { createServer } from 'node:net';
import { ConfigError } from '../config/config-error.js';
import type { ListenAddress } from '../webhook/listen-address.js';

export async function checkListenAddress(listen: ListenAddress): Promise<void> {
  const shown = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE')
        reject(
          new ConfigError(
            `--webhook-listen ${shown}: port ${listen.port} is in use; stop what listens there or choose another port (SVC_WEBHOOK_LISTEN)`,
          ),
        );
      else if (e.code === 'EADDRNOTAVAIL')
        reject(
          new ConfigError(
            `--webhook-listen ${shown}: this machine has no address ${listen.host}; listen on one of its addresses, or 0.0.0.0`,
          ),
        );
      else if (e.code === 'EACCES')
        reject(
          new ConfigError(
            `--webhook-listen ${shown}: not allowed to listen on port ${listen.port} (below 1024 needs privileges); choose a port above 1023`,
          ),
        );
      else reject(new ConfigError(`--webhook-listen ${shown}: cannot listen (${e.code ?? e.message})`));
    });
    server.listen({ host: listen.host, port: listen.port, exclusive: true }, () => server.close(() => resolve()));
  });
}
