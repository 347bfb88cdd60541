/** The initial-password screen's live checklist (spec section 5). */
export const passwordRules = [
  { id: 'upper', label: 'At least 1 uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lower', label: 'At least 1 lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { id: 'number', label: 'At least 1 number', test: (p: string) => /\d/.test(p) },
  { id: 'special', label: 'At least 1 special character', test: (p: string) => /[^A-Za-z0-9]/.test(p) },
  { id: 'length', label: 'Between 8 and 20 characters', test: (p: string) => p.length >= 8 && p.length <= 20 },
] as const;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 12 random letters and digits, drawn without modulo bias from the platform's CSPRNG. */
export function generatePassword(length = 12, random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}
