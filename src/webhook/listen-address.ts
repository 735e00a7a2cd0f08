// `--webhook-listen HOST:PORT` and the local URL a listening socket is reachable at.

export interface ListenAddress {
  host: string;
  port: number;
}

const DEFAULT_LISTEN = '127.0.0.1:0';

/** "127.0.0.1:0", "[::1]:8080", "0.0.0.0:9000"; a bare port listens on 127.0.0.1. */
export function parseListenAddress(text: string = DEFAULT_LISTEN): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text) ?? /^()()(\d{1,5})$/.exec(text);
  if (!m) throw new Error(`webhook listen address "${text}" is not HOST:PORT`);
  const host = m[1] || m[2] || '127.0.0.1';
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`webhook listen port ${port} is above 65535`);
  return { host, port };
}

/** Host part of a URL that reaches `host` from this machine: a wildcard listen is reached on loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
