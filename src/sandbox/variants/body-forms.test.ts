import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import {
  addTopLevelField,
  basicTimestamps,
  escapeNonAscii,
  offsetTimestamps,
  omitMembers,
  prettyJson,
} from './body-forms.js';

const BODY =
  '{"id":9007199254740993,"name":"דנה \\"q\\" ,:{}[]","list":[],"obj":{},"n":[1,2.0,{"a":null}],"at":"2025-01-02T03:04:05.678Z"}';
const same = (a: string, b: string) => expect(JSON.stringify(parse(a))).toBe(JSON.stringify(parse(b)));

describe('variant body forms', () => {
  it('pretty-prints without touching strings or number tokens', () => {
    const pretty = prettyJson(BODY);
    expect(pretty).toContain('\n  "id": 9007199254740993,\n');
    expect(pretty).toContain('"name": "דנה \\"q\\" ,:{}[]"');
    expect(pretty).toContain('"list": [],');
    expect(pretty).toContain('2.0');
    same(pretty, BODY);
  });

  it('escapes non-ASCII characters to the same value', () => {
    const escaped = escapeNonAscii(BODY);
    expect(escaped).toMatch(/^[\u0000-\u007f]*$/);
    expect(escaped).toContain('\\u05d3');
    same(escaped, BODY);
    expect(JSON.parse(escapeNonAscii('"😀"'))).toBe('😀');
  });

  it('writes Z timestamps with +00:00', () => {
    expect(offsetTimestamps(BODY)).toContain('"at":"2025-01-02T03:04:05.678+00:00"');
    expect(Date.parse(JSON.parse(offsetTimestamps('"2025-01-02T03:04:05Z"')) as string)).toBe(
      Date.parse('2025-01-02T03:04:05Z'),
    );
  });

  it('writes Z timestamps in the ISO 8601 basic format', () => {
    expect(basicTimestamps(BODY)).toContain('"at":"20250102T030405.678Z"');
    expect(basicTimestamps('{"a":"2025-01-02T03:04:05Z","b":"not 2025-01-02T03:04:05Z"}')).toBe(
      '{"a":"20250102T030405Z","b":"not 2025-01-02T03:04:05Z"}',
    );
  });

  it('adds a top-level field to objects only', () => {
    expect(JSON.parse(addTopLevelField('{"a":1}', 'zz', '"x"'))).toEqual({ zz: 'x', a: 1 });
    expect(JSON.parse(addTopLevelField('{}', 'zz', '1'))).toEqual({ zz: 1 });
    expect(addTopLevelField('[1]', 'zz', '1')).toBe('[1]');
  });
});

describe('omitMembers', () => {
  it('leaves out the members picked at any depth and keeps every number token as written', () => {
    const text =
      '{"id":9223372036854775807,"requirements":[{"index":0,"met":null,"evidence":null},{"index":1,"evidence":"x"}],"p":1.0}';
    expect(omitMembers(text, (key, value) => key === 'evidence' && value === null)).toBe(
      '{"id":9223372036854775807,"requirements":[{"index":0,"met":null},{"index":1,"evidence":"x"}],"p":1.0}',
    );
  });

  it('returns a body that is not JSON as it was', () => {
    expect(omitMembers('not json', () => true)).toBe('not json');
  });
});
