import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// Mexico dropped the mobile "1" after +52 in 2019 (IFT's dialling reform); phones and autofill
// still write it, and libphonenumber-js rightly finds +52 1 + ten digits impossible.
const OLD_MOBILE_PREFIX = /^\+521(\d{10})$/;

/**
 * The visitor's phone as the agency dials it: E.164 and a WhatsApp link, read
 * by libphonenumber-js with Mexico as the country of a number written without
 * one. Undefined when it is not a possible number (the schema checks length
 * only, as the spec says; the agency then sees the number as typed).
 */
export function dialable(phone: string): { e164: string; whatsapp: string } | undefined {
  const bare = phone.replace(OLD_MOBILE_PREFIX, '+52$1');
  const parsed = parsePhoneNumberFromString(bare, 'MX');
  if (!parsed?.isPossible()) return undefined;
  return { e164: parsed.number, whatsapp: `https://wa.me/${parsed.number.slice(1)}` };
}
