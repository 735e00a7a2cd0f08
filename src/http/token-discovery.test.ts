import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../json/lossless.js';
import { findOrgTokens } from './token-discovery.js';

const find = (text: string) => findOrgTokens(parseJsonLossless(text));

describe('findOrgTokens', () => {
  it('finds org tokens at the top, nested and in lists', () => {
    expect(find('{"org_token":"sot_aaaaaaaa"}')).toEqual(['sot_aaaaaaaa']);
    expect(find('{"data":{"org_token":"sot_bbbbbbbb"},"items":[{"org_token":"sot_cccccccc"}]}')).toEqual([
      'sot_bbbbbbbb',
      'sot_cccccccc',
    ]);
  });

  it('leaves short values, other keys, non-strings and anything deeper than four levels', () => {
    expect(find('{"org_token":"short","token":"sot_dddddddd","x":{"org_token":12345678}}')).toEqual([]);
    expect(find('{"a":{"b":{"c":{"org_token":"sot_eeeeeeee"}}}}')).toEqual(['sot_eeeeeeee']);
    expect(find('{"a":{"b":{"c":{"d":{"e":{"org_token":"sot_ffffffff"}}}}}}')).toEqual([]);
    expect(findOrgTokens(undefined)).toEqual([]);
  });
});
