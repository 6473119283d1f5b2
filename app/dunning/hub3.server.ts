/**
 * The HUB3 data string of the Croatian general payment slip's 2D barcode
 * (HUB-3A, the Croatian Banking Association's standard; field list and
 * lengths in docs/collections.md#the-payment-slip): fourteen fields, each
 * ended by a line feed, in ISO-8859-2. A field longer than the standard
 * allows is cut to its length, because a banking app refuses the whole code
 * otherwise; a character ISO-8859-2 lacks loses its accent ('ß' stays '?').
 */

export interface Hub3Party {
  name: string;
  /** Street and number. */
  street: string;
  /** Postal code and place. */
  place: string;
}

export interface Hub3Payment {
  amountCents: number;
  payer: Hub3Party;
  recipient: Hub3Party;
  iban: string;
  /** 'HR00' … 'HR99'. */
  model: string;
  reference: string;
  /** ISO 20022 purpose code, e.g. 'OTHR'. */
  purposeCode: string;
  description: string;
}

export const HUB3_HEADER = 'HRVHUB30';
export const HUB3_CURRENCY = 'EUR';

/** Maximum lengths (characters, one byte each in ISO-8859-2) of the variable fields. */
export const HUB3_MAX = {
  payerName: 30,
  payerStreet: 27,
  payerPlace: 27,
  recipientName: 25,
  recipientStreet: 25,
  recipientPlace: 27,
  iban: 21,
  model: 4,
  reference: 22,
  purposeCode: 4,
  description: 35,
} as const;

/** The amount field: 15 digits, the amount in cents with leading zeros. */
const AMOUNT_DIGITS = 15;

const LATIN2 = new TextDecoder('iso-8859-2');
/** Character → its ISO-8859-2 byte, read from the platform's own decoder so no table is typed by hand. */
const LATIN2_BYTES = new Map<string, number>(Array.from({ length: 256 }, (_, byte) => [LATIN2.decode(Uint8Array.of(byte)), byte] as const));

function representable(character: string): string {
  if (LATIN2_BYTES.has(character)) return character;
  const bare = character.normalize('NFD').replace(/\p{M}/gu, '');
  return bare.length > 0 && [...bare].every((part) => LATIN2_BYTES.has(part)) ? bare : '?';
}

/** One field: single spaces for any whitespace (a line feed would end the field), characters ISO-8859-2 has, cut to `max`. */
function field(value: string, max: number): string {
  const text = [...value.replace(/\s+/g, ' ').trim()].map(representable).join('');
  return [...text].slice(0, max).join('');
}

/** The data string as text (what the barcode carries once read as ISO-8859-2). */
export function hub3Text(payment: Hub3Payment): string {
  if (!Number.isSafeInteger(payment.amountCents) || payment.amountCents < 0 || String(payment.amountCents).length > AMOUNT_DIGITS) {
    throw new Error(`HUB3: the amount ${payment.amountCents} cents does not fit ${AMOUNT_DIGITS} digits`);
  }
  const fields = [
    HUB3_HEADER,
    HUB3_CURRENCY,
    String(payment.amountCents).padStart(AMOUNT_DIGITS, '0'),
    field(payment.payer.name, HUB3_MAX.payerName),
    field(payment.payer.street, HUB3_MAX.payerStreet),
    field(payment.payer.place, HUB3_MAX.payerPlace),
    field(payment.recipient.name, HUB3_MAX.recipientName),
    field(payment.recipient.street, HUB3_MAX.recipientStreet),
    field(payment.recipient.place, HUB3_MAX.recipientPlace),
    field(payment.iban, HUB3_MAX.iban),
    field(payment.model, HUB3_MAX.model),
    field(payment.reference, HUB3_MAX.reference),
    field(payment.purposeCode, HUB3_MAX.purposeCode),
    field(payment.description, HUB3_MAX.description),
  ];
  return fields.map((value) => `${value}\n`).join('');
}

/** The bytes the barcode encodes: the text in ISO-8859-2 (every character of hub3Text has its byte). */
export function hub3Bytes(text: string): Uint8Array {
  return Uint8Array.from([...text], (character) => LATIN2_BYTES.get(representable(character)) ?? 0x3f);
}
