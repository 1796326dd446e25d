import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// Mexico dropped the mobile "1" after +52 in 2019; phones and autofill still write it, and libphonenumber-js rightly
// finds it impossible.
const OLD_MOBILE_PREFIX = /^\+521(\d{10})$/;

/**
 * E.164 and a WhatsApp link (Mexico by default), or undefined when not possible: the schema checks length only, as the
 * spec says.
 */
export function dialable(phone: string): { e164: string; whatsapp: string } | undefined {
  const parsed = parsePhoneNumberFromString(phone.replace(OLD_MOBILE_PREFIX, '+52$1'), 'MX');
  if (!parsed?.isPossible()) return undefined;
  return { e164: parsed.number, whatsapp: `https://wa.me/${parsed.number.slice(1)}` };
}
