// Conservative on purpose: a false positive costs the agency a client (called back late), a false negative one phone
// call, so each rule looks for what no person writing about their business produces by accident. Every pattern is
// linear in the input (no nested quantifiers): a bot may post far more than the 500 characters a reason allows.
export type SpamRule = 'link-in-name' | 'html-in-name' | 'only-links' | 'bbcode' | 'html-link';
type Enquiry = { name: string; mail: string; phone: string; reason: string };

/** For the agency's listing of suspected spam: what the rule saw. */
export const SPAM_RULE_LABELS: Record<SpamRule, string> = {
  'link-in-name': 'El nombre contiene una dirección web',
  'html-in-name': 'El nombre contiene etiquetas HTML',
  'only-links': 'El mensaje no tiene texto, solo enlaces',
  bbcode: 'Contiene enlaces en formato de foro ([url], [img])',
  'html-link': 'Contiene un enlace HTML (<a href>)',
};

const SCHEME_OR_WWW = /https?:\/\/|\bwww\./i;
// '<' then a letter or '/': a tag. 'Ana <3' or '2 > 1' are not.
const HTML_TAG = /<[a-z/]/i;
// (?![a-z]) so '[LinkedIn]' in a reason is not '[link'.
const BBCODE = /\[(?:url|link)(?![a-z])|\[\/url\]|\[img\]/i;
// Bounded gap (attributes before href) keeps this linear.
const HTML_LINK = /<a\s[^<>]{0,200}href/i;
const WHITESPACE = /\s+/;
const HOST_END = /[/?#:]/;
const DOMAIN_LABEL = /^[\p{L}\p{N}-]+$/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const LETTERS = /\p{L}/gu;
const countLetters = (text: string) => text.match(LETTERS)?.length ?? 0;

// The TLDs spam and Mexican businesses use, not "any 2 to 24 letters", which would read 'Ma.Guadalupe' or 'lic.juan' as
// addresses; .de, .es and .la are left out ('Ma.de la Luz'): a bare domain missed here only costs a phone call.
const TLDS =
  'com net org info biz pro mobi xyz top site online shop store club live vip win bet casino poker click link fun ' +
  'space website tech icu buzz app dev io ai me co cc tv ws ly gg pw tk ml ga cf gq mx us ca uk eu ru su ua cn in br ' +
  'ar cl pe fr it nl pl';
const COMMON_TLDS = new Set(TLDS.split(' '));

/** The first rule an enquiry breaks, or null. */
export function spamRule(enquiry: Enquiry): SpamRule | null {
  const { name, reason } = enquiry;
  const fields = [enquiry.name, enquiry.mail, enquiry.phone, enquiry.reason];
  if (SCHEME_OR_WWW.test(name) || name.split(WHITESPACE).some(isBareDomain)) return 'link-in-name';
  if (HTML_TAG.test(name)) return 'html-in-name';
  if (isOnlyLinks(reason)) return 'only-links';
  if (fields.some((field) => BBCODE.test(field))) return 'bbcode';
  if (fields.some((field) => HTML_LINK.test(field))) return 'html-link';
  return null;
}

/** At least one web address, and fewer than 3 letters once they are removed. */
function isOnlyLinks(text: string): boolean {
  let addresses = 0;
  let letters = 0;
  for (const token of text.split(WHITESPACE)) {
    const linkAt = token.search(SCHEME_OR_WWW);
    const isAddress = linkAt >= 0 || isBareDomain(token);
    if (isAddress) addresses++;
    // What comes before a link in the same word ('Sitio:https://…') still counts as text; a bare domain has none.
    letters += countLetters(isAddress ? token.slice(0, Math.max(linkAt, 0)) : token);
  }
  return addresses > 0 && letters < 3;
}

// 'promo.ru', 'cheap-seo.com/x', '(mitaller.com.mx),': labels of letters, digits or '-', the first of 2 or more, ending
// in a common TLD; an e-mail address is not one.
function isBareDomain(token: string): boolean {
  let start = 0;
  while (start < token.length && !WORD_CHAR.test(token.charAt(start))) start++;
  const hostEnd = token.slice(start).search(HOST_END);
  let end = hostEnd < 0 ? token.length : start + hostEnd;
  while (end > start && !WORD_CHAR.test(token.charAt(end - 1))) end--;
  const labels = token.slice(start, end).split('.');
  const tld = labels.pop();
  if (tld === undefined || labels.length === 0 || !COMMON_TLDS.has(tld.toLowerCase())) return false;
  return (labels[0]?.length ?? 0) >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}
