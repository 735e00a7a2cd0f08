import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseJsonCompact } from './compact.js';
import { parseJsonLossless } from './lossless.js';

const SAMPLES = [
  '{"id":9007199254740993,"f":1.0,"e":9.9e11,"n":-0,"neg":-12,"s":"a\\"b\\u00e9\\n","t":true,"u":false,"z":null}',
  ' [ {} , {"a":1} , {"a":1} , [] , [1,"x",null] , {"b":{"c":[{}]}} , "\\ud83d\\ude00" , [-0] , [0] ] ',
  '{"1":"x","a":[{"k":2.50},{"k":2.50}],"big":[18446744073709551616,18446744073709551616]}',
  '"just a string"',
  '12',
  '{"constructor":1,"toString":{}}',
  '[{"a":"}"},{"a":"}"},{"a":"}x"},{"a":"}","b":1},["]"],["]"],["]",1],{"a":"}"},{"a":"{}"}]',
];
const FALLBACKS = [
  '{"a":1,"a":1}',
  '{"__proto__":{"x":1}}',
  '{"a":1,"a":2}',
  '[1,]',
  '{"a":01}',
  '"tab\there"',
  '\ufeff{}',
  '{"a":1} x',
  '{"a":"\\x"}',
  '',
];

function outcome(parse: (t: string) => unknown, text: string): unknown {
  try {
    return { value: parse(text) };
  } catch (err) {
    return { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

describe('parseJsonCompact', () => {
  it.each([...SAMPLES, ...FALLBACKS])('gives lossless-json value or error for %j', (text) => {
    const compact = outcome(parseJsonCompact, text);
    expect(compact).toEqual(outcome(parseJsonLossless, text));
    const neg = outcome(parseJsonCompact, text) as { value?: unknown };
    if (text.includes('[-0]')) expect(Object.is((neg.value as unknown[][])[7]![0], -0)).toBe(true);
  });

  it('shares one instance per distinct small container text, and no other', () => {
    const v = parseJsonCompact('{"c":[{},{},{"a":1},{"a":1},{"a":2},{"d":{}},{"d":{}}],"r":[[1,2],[1,2]]}') as {
      c: unknown[];
      r: unknown[];
    };
    expect(v.c[0]).toBe(v.c[1]);
    expect(v.c[2]).toBe(v.c[3]);
    expect(v.c[4]).not.toBe(v.c[2]);
    expect(v.c[5]).toBe(v.c[6]); // the same text, the same value
    expect(v.c[5]).not.toBe(v.c[0]);
    expect(v.r[0]).toBe(v.r[1]);
  });
});

describe('strings of a compact value', () => {
  it('are copies: a short string kept does not keep the whole text alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const keepError = (): string => {
      const text = `{"error":"a_long_error_code_here","pad":"${'x'.repeat(10_000_000)}"}`;
      return (parseJsonCompact(text) as { error: string }).error;
    };
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = keepError();
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000);
    expect(kept).toBe('a_long_error_code_here');
  });
});
