// `--sign-key FILE` (SVC_SIGN_KEY): the Ed25519 private key that signs certification.intoto.json. Read
// and checked when the options are, so a bad key is exit 2 before anything is spent. The key's text
// never reaches a message: only the file's name as the operator wrote it.

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, errnoOf } from '../config/config-error.js';
import type { ReporterToken } from '../config/reporter-names.js';

export interface SignKey {
  /** As the operator wrote it (for messages). */
  file: string;
  key: KeyObject;
}

export function readSignKey(path: string, shown: string, reporters: readonly ReporterToken[]): SignKey {
  // The record signs results.json's digest: the file must be written.
  if (!reporters.some((r) => r === 'json')) {
    throw new ConfigError(`--sign-key signs results.json: add json to --reporter (it is written as a file)`);
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`--sign-key ${shown}: cannot read the file (${errnoOf(e) ?? 'unreadable'})`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new ConfigError(
      `--sign-key ${shown}: not a PEM private key; make one with: openssl genpkey -algorithm ed25519 -out sign-key.pem`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ConfigError(
      `--sign-key ${shown}: an Ed25519 private key is needed, this is ${key.asymmetricKeyType ?? 'another kind'}`,
    );
  }
  return { file: shown, key };
}
