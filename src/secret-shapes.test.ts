import { describe, expect, it } from 'vitest';
import {
  credentialFinder,
  credentialShapeOf,
  exactShape,
  MAX_CREDENTIAL_LENGTH,
  ORG_TOKEN,
  PARTNER_KEY,
  restAfterScanned,
} from './secret-shapes.js';

const HEX48 = '0123456789abcdef'.repeat(3);

describe('the credential shapes of the spec (Authentication)', () => {
  it('a partner key is spk_live_ + 48 lowercase hex, an org token sot_ + 48 lowercase hex, nothing else', () => {
    expect(exactShape(PARTNER_KEY).test(`spk_live_${HEX48}`)).toBe(true);
    expect(exactShape(ORG_TOKEN).test(`sot_${HEX48}`)).toBe(true);
    expect(exactShape(PARTNER_KEY).test(`spk_live_${HEX48.toUpperCase()}`)).toBe(false);
    expect(exactShape(PARTNER_KEY).test(`spk_live_${HEX48}0`)).toBe(false);
    expect(exactShape(ORG_TOKEN).test(`sot_${HEX48.slice(1)}`)).toBe(false);
    expect(exactShape(ORG_TOKEN).test(`spk_live_${HEX48}`)).toBe(false);
    expect(MAX_CREDENTIAL_LENGTH).toBe(`spk_live_${HEX48}`.length);
  });

  it('after the scanned string (spk_, sot_) the rest of a full one follows, not continued by a word character', () => {
    expect(restAfterScanned(PARTNER_KEY).test(`live_${HEX48}"`)).toBe(true);
    expect(restAfterScanned(PARTNER_KEY).test(`live_${HEX48}_x`)).toBe(false);
    expect(restAfterScanned(ORG_TOKEN).test(`${HEX48}`)).toBe(true);
    expect(restAfterScanned(ORG_TOKEN).test(`live_${HEX48}`)).toBe(false);
  });

  it('the finder sees a prefix at a word start followed by enough letters or digits, and names the prefix', () => {
    expect(credentialFinder(8).exec(`key=sot_abcdefgh1`)?.[1]).toBe('sot_');
    expect(credentialFinder(8).exec(`"spk_live_ABCDEFGH"`)?.[1]).toBe('spk_live_');
    expect(credentialFinder(8).exec('my_sot_abcdefgh1')).toBeNull();
    expect(credentialFinder(8).exec('sot_abcdefg')).toBeNull();
    expect(credentialFinder(8).exec('sot_settings')).not.toBeNull();
  });

  it('tells a found prefix or a known credential by the string it starts with; other text is neither', () => {
    expect(credentialShapeOf('spk_')).toBe(PARTNER_KEY);
    expect(credentialShapeOf(`spk_live_${HEX48}`)).toBe(PARTNER_KEY);
    expect(credentialShapeOf('sot_')).toBe(ORG_TOKEN);
    expect(credentialShapeOf(`sot_${HEX48}`)).toBe(ORG_TOKEN);
    expect(credentialShapeOf('whsec_1234')).toBeUndefined();
    expect(credentialShapeOf('xspk_live_')).toBeUndefined();
  });
});
