// Activation codes are typed by people: the spec normalizes case, spaces and dashes on input,
// so the certifier does the same before judging the shape.

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const BODY = new RegExp(`^SVC[${ALPHABET}]{8}$`);

/** `SVC-XXXX-XXXX` for a code of the right shape in any case/spacing, otherwise undefined. */
export function normalizeActivationCode(input: string): string | undefined {
  const compact = input.toUpperCase().replace(/[\s-]+/g, '');
  if (!BODY.test(compact)) return undefined;
  return `SVC-${compact.slice(3, 7)}-${compact.slice(7, 11)}`;
}
