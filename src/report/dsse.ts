// DSSE (Dead Simple Signing Envelope, github.com/secure-systems-lab/dsse, protocol.md): the signature
// covers the pre-authentication encoding of the payload's type and bytes, so neither can be swapped
// without breaking it. Ed25519 through node:crypto; no library, so the envelope is exactly what the
// protocol describes and a verifier written from it (test/signed-record-verifier.test.ts) agrees.

import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  /** Base64 of the payload's bytes. */
  payload: string;
  payloadType: string;
  signatures: DsseSignature[];
}

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes, ASCII decimal. */
function preAuthEncoding(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
}

/**
 * The key's id: SHA-256 (hex) of its public key in DER (SubjectPublicKeyInfo). Public, so it may be
 * shown; it tells a verifier holding another key that the record was not signed with theirs.
 */
export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function signEnvelope(payloadType: string, body: Buffer, privateKey: KeyObject): DsseEnvelope {
  // Ed25519 takes no digest algorithm: null.
  const sig = sign(null, preAuthEncoding(payloadType, body), privateKey);
  return {
    payload: body.toString('base64'),
    payloadType,
    signatures: [{ keyid: keyIdOf(privateKey), sig: sig.toString('base64') }],
  };
}

/** Whether one of the envelope's signatures is the key's over PAE(payloadType, payload). */
export function envelopeSignedBy(envelope: DsseEnvelope, publicKey: KeyObject): boolean {
  const body = Buffer.from(envelope.payload, 'base64');
  const pae = preAuthEncoding(envelope.payloadType, body);
  return envelope.signatures.some((s) => {
    try {
      return verify(null, pae, publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}
