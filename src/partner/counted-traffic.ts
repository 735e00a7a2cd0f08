// The work of judging, counted: every read of a field of the traffic (a request, and the plain objects
// and arrays it holds, such as the items of a decision batch). A rule that compares each request with
// the ones after it reads a field per pair; one that looks them up reads a bounded number per request.
// For tests and benches: the proxies make each read slower, never different.

import type { Traffic } from './traffic.js';

function isPlain(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `traffic` behind proxies that count each field read; the same object always gets the same proxy. */
export function countedTraffic(traffic: Traffic): { traffic: Traffic; reads: () => number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const counted = <T>(value: T): T => {
    if (!isPlain(value)) return value;
    let proxy = proxies.get(value);
    if (!proxy) {
      proxy = new Proxy(value, {
        get(target, key, receiver) {
          reads += 1;
          return counted(Reflect.get(target, key, receiver) as unknown);
        },
      });
      proxies.set(value, proxy);
    }
    return proxy as T;
  };
  return { traffic: counted(traffic), reads: () => reads };
}
