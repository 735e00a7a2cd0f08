import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../json/lossless.js';
import { discoverOrgTokens, findOrgTokens, MAX_TOKEN_CHARS, MAX_TOKENS_PER_ANSWER } from './token-discovery.js';

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

  it('takes at most MAX_TOKENS_PER_ANSWER tokens of at most MAX_TOKEN_CHARS from an answer, and counts the rest', () => {
    const many = JSON.stringify({
      items: Array.from({ length: 2000 }, (_, i) => ({ org_token: `sot_${i.toString(16).padStart(48, '0')}` })),
    });
    const found = discoverOrgTokens(parseJsonLossless(many));
    expect(found.tokens).toHaveLength(MAX_TOKENS_PER_ANSWER);
    expect(found.ignored).toBe(2000 - MAX_TOKENS_PER_ANSWER);
    const long = discoverOrgTokens(parseJsonLossless(`{"error":"x","org_token":"${'a'.repeat(10_000)}"}`));
    expect(long).toEqual({ tokens: [], ignored: 1, tooLong: 1, longest: 10_000 });
    expect(MAX_TOKEN_CHARS).toBeLessThan(10_000);
  });

  it('reads an answer nested thousands of levels deep without recursion', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(discoverOrgTokens(JSON.parse(deep) as never)).toEqual({ tokens: [], ignored: 0, tooLong: 0, longest: 0 });
  });
});
