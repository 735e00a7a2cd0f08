// Which language a message is in: Hebrew letters, Latin letters, English text.

const HEBREW = /[\u05D0-\u05EA]/;
const LATIN = /[A-Za-z]/;

export function isHebrew(s: string): boolean {
  return HEBREW.test(s);
}

/** Some Latin letter: English text that may still quote Hebrew data (a place, a requirement). */
export function hasLatin(s: string): boolean {
  return LATIN.test(s);
}

export function isEnglish(s: string): boolean {
  return LATIN.test(s) && !HEBREW.test(s);
}
