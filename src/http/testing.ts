// Helpers for the HTTP layer's own tests: real servers on 127.0.0.1 (an HTTP one, and a raw TCP one
// that can answer garbage, hang or cut a body short), closed together after each test.

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';

export interface LoopbackServers {
  /** An HTTP server given the whole request body; resolves to its base URL ending in /v1. */
  http(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string>;
  /** A TCP server that hands the socket over once the request's first bytes arrived. */
  raw(onData: (socket: Socket) => void): Promise<string>;
  /** Destroys every connection and closes every server started so far. */
  closeAll(): Promise<void>;
}

export function loopbackServers(): LoopbackServers {
  const closers: Array<() => Promise<void>> = [];

  async function listen(server: Server | NetServer): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sockets = new Set<Socket>();
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  return {
    http: (handler) =>
      listen(
        createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
        }),
      ),
    raw: (onData) =>
      listen(
        createNetServer((socket) => {
          socket.on('error', () => {});
          socket.once('data', () => onData(socket));
        }),
      ),
    async closeAll() {
      for (const close of closers.splice(0).reverse()) await close();
    },
  };
}
