// The text of an observation, bounded where it is kept. A check may describe what it found item by
// item ("index is not their 0-based position: [{at:0,…}, …]"); against a hostile answer of a million
// items such a message was megabytes, repeated in every report (results.json 40 MB, report.html 48 MB
// for a 1e5-item target) and built into strings that took the process past its memory bound while the
// reports were written. What a person reads is the beginning; the length of the whole is kept.

import { detachedHead } from '../http/record.js';
import { OBSERVATION_TEXT_CHARS } from './limits.js';
import type { Observation } from './results.js';

/** `text` cut to `max` characters, saying how long it was; a copy that holds no view of `text`. */
export function boundedText(text: string, max = OBSERVATION_TEXT_CHARS): string {
  if (text.length <= max) return text;
  return `${detachedHead(text, max)}… (cut: ${text.length} characters in all)`;
}

/** The observation with its message, expected and received values bounded. */
export function boundedObservation<O extends Omit<Observation, 'exchange'>>(obs: O): O {
  const { message, expected, received } = obs;
  if (
    message.length <= OBSERVATION_TEXT_CHARS &&
    (expected?.length ?? 0) <= OBSERVATION_TEXT_CHARS &&
    (received?.length ?? 0) <= OBSERVATION_TEXT_CHARS
  )
    return obs;
  return {
    ...obs,
    message: boundedText(message),
    ...(expected !== undefined ? { expected: boundedText(expected) } : {}),
    ...(received !== undefined ? { received: boundedText(received) } : {}),
  };
}
