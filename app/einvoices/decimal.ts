/**
 * Exact decimals for e-invoice quantities and prices, which may carry more
 * than the two decimals of money (UBL allows any scale): a value is a BigInt
 * of units at a decimal scale, so no float ever rounds a line amount. Shared
 * by browser and server (no node imports).
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** '12.50' → { units: 1250n, scale: 2 }; null for anything that is not a plain decimal. */
export function parseDecimal(text: string | number): Decimal | null {
  const match = DECIMAL.exec(String(text).trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  // Caps the digits so a hostile value cannot make BigInt arithmetic slow.
  if (whole.length + fraction.length > 40) return null;
  return { units: BigInt(whole + fraction) * (sign === '-' ? -1n : 1n), scale: fraction.length };
}

/** Divides with half-up rounding (ties away from zero, the commercial rule EN 16931 amounts use). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) return divideHalfUp(-numerator, -denominator);
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let quotient = abs / denominator;
  if ((abs % denominator) * 2n >= denominator) quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * quantity × price ÷ baseQuantity in cents, rounded once half-up (EN 16931
 * BT-129 × BT-146 ÷ BT-149, before line allowances and charges).
 */
export function lineAmountCents(quantity: Decimal, price: Decimal, baseQuantity: Decimal = { units: 1n, scale: 0 }): number {
  // value = (q / 10^qs) × (p / 10^ps) ÷ (b / 10^bs); cents = value × 100.
  const numerator = quantity.units * price.units * 10n ** BigInt(baseQuantity.scale) * 100n;
  const denominator = baseQuantity.units * 10n ** BigInt(quantity.scale + price.scale);
  return Number(divideHalfUp(numerator, denominator));
}

/** The decimal rounded half-up to `scale` places, as text ('1.23456' at 4 → '1.2346'). */
export function decimalToFixed(value: Decimal, scale: number): string {
  const units = value.scale <= scale ? value.units * 10n ** BigInt(scale - value.scale) : divideHalfUp(value.units, 10n ** BigInt(value.scale - scale));
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
