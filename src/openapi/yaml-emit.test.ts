import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from './yaml-emit.js';

describe('toYaml', () => {
  it('writes values a YAML parser reads back exactly, whatever the strings hold', () => {
    const value = {
      plain: 'application/json',
      words: ['yes', 'No', 'on', 'OFF', 'y', 'true', 'null', '~', ''],
      numberish: ['200', '4XX', '1e3', '0x1f', '.5', '3.1.0', '-1', '+1'],
      punctuation: [
        'a: b',
        'a #b',
        '#/components/schemas/Run',
        '- item',
        '[x]',
        '{y}',
        '*ref',
        '&anchor',
        '!tag',
        '|',
        '>',
        "it's",
        '"q"',
        '%d',
        '@x',
        '`b`',
        'trailing ',
        ' leading',
      ],
      text: ['line\nbreak', 'tab\there', 'מועמד נסוג', 'emoji 🎉', '\u0000nul', '…'],
      '200': { '4XX': 1, '/runs/{run_id}': { 'x-sandbox-only': true } },
      numbers: [0, -3, 2.5, 990000000001, 1e21],
      empty: { object: {}, array: [] },
      nested: [[1, [2, []]], [{ a: { b: [{}] } }], { c: null }],
      nothing: null,
    };
    expect(parse(toYaml(value))).toEqual(value);
  });

  it('is deterministic, keeps key order and quotes what YAML 1.1 reads as a boolean', () => {
    const value = { b: 1, a: [{ z: 1, w: 2 }], c: 'x', y: 'n' };
    expect(toYaml(value)).toBe('b: 1\na:\n  - z: 1\n    w: 2\nc: x\n"y": "n"\n');
    expect(toYaml(value)).toBe(toYaml(structuredClone(value)));
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => toYaml({ n: Number.NaN })).toThrow(/NaN/);
    expect(() => toYaml({ f: () => 1 })).toThrow(/function/);
  });
});
