/**
 * Money is counted in whole cents: the database stores cents (bigint), sums and comparisons are on integers, and
 * dollars appear only on the wire (the spec's two-decimal numbers) and on screen. Binary floating point cannot hold
 * most decimal amounts (0.1 + 0.2 is 0.30000000000000004), so every conversion here goes through decimal digits
 * instead of multiplying a double by 100 (docs/decisions/027).
 */
declare const centsBrand: unique symbol;

/** A whole number of cents. Made only by the functions below, so a dollar number cannot pass for it. */
export type Cents = number & { readonly [centsBrand]: true };

/** The largest amount counted: 2^53 − 1 cents, beyond which a JavaScript number skips whole cents. */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** Dollars written out with at most two decimals: "12", "12.3", "-0.05". */
const TWO_DECIMALS = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** A whole number as cents; throws when it is not one (a fraction, NaN, past 2^53). */
export function cents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not a whole number of cents: ${value}`);
  return value as Cents;
}

/** The cents in dollar digits ("1,234,567.89" without the commas); null when they are not dollars and whole cents. */
function centsOfDigits(text: string): Cents | null {
  const match = TWO_DECIMALS.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const total = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(total)) return null;
  return (sign === '-' && total !== 0 ? -total : total) as Cents;
}

/**
 * Dollars with at most two decimals, exactly: "1234567.89" or 1234567.89 → 123456789. A number is read by its
 * shortest decimal form (what JSON carries), so 0.1 + 0.2 (0.30000000000000004) is not whole cents and gives null,
 * as do 10.001, NaN and exponent forms. Used where an amount comes in and must be refused when it is not one.
 */
export function parseCents(value: number | string): Cents | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return centsOfDigits(typeof value === 'number' ? String(value) : value.trim());
}

/**
 * A dollar amount as the nearest cent, read from its decimal digits (toFixed rounds the double's exact value, with no
 * multiplication): exact for every two-decimal amount, and 0.30000000000000004, a sum made in dollars by older
 * code, is 30. For values that are already amounts (the wire's, a replica's); input to check uses parseCents.
 */
export function centsFromDollars(dollars: number): Cents {
  if (!Number.isFinite(dollars) || Math.abs(dollars) > MAX_CENTS / 100) throw new RangeError(`Not an amount of dollars: ${dollars}`);
  const result = centsOfDigits(dollars.toFixed(2));
  if (result === null) throw new RangeError(`Not an amount of dollars: ${dollars}`);
  return result;
}

/** Cents as the wire's dollars: the double nearest to the two-decimal amount (division rounds correctly), so 30 → 0.3. */
export function dollarsFromCents(amount: Cents): number {
  return amount / 100;
}

export function dollarsOrNull(amount: Cents | null): number | null {
  return amount === null ? null : dollarsFromCents(amount);
}
