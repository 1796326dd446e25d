import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// Mexico dropped the mobile "1" after +52 in 2019, which phones and autofill still write and libphonenumber-js rejects.
const OLD_MOBILE_PREFIX = /^\+521(\d{10})$/;

/** E.164 and a WhatsApp link (Mexico by default), or undefined if impossible (the schema, per spec, checks length). */
export function dialable(phone: string): { e164: string; whatsapp: string } | undefined {
  const parsed = parsePhoneNumberFromString(phone.replace(OLD_MOBILE_PREFIX, '+52$1'), 'MX');
  if (!parsed?.isPossible()) return undefined;
  return { e164: parsed.number, whatsapp: `https://wa.me/${parsed.number.slice(1)}` };
}
