/**
 * @jest-environment node
 */
import { dialable } from './phone';
import { barePhone } from '@/lib/contact/rules';
import { contactSchema } from '@/lib/contact/schema';

describe('phones as Mexicans type them', () => {
  it.each([
    ['+52 55 1234 5678', '+525512345678'],
    ['+52 1 55 1234 5678', '+5215512345678'],
    ['(55) 1234-5678', '5512345678'],
    ['5512345678', '5512345678'],
    ['55.1234.5678', '5512345678'],
    ['+52\u00a055\u202f1234\u20115678', '+525512345678'],
  ])('%s is checked and sent as %s', (typed, sent) => {
    expect(barePhone(typed)).toBe(sent);
    expect(contactSchema.shape.phone.parse(typed)).toBe(sent);
  });

  it('the 15-character rule applies to the bare number', () => {
    expect(contactSchema.shape.phone.safeParse('+52 1 55 1234 56789').success).toBe(true); // 15 bare
    expect(
      contactSchema.shape.phone.safeParse('+52 1 55 1234 567890').error?.issues[0]?.message,
    ).toBe('Este campo no debe tener mas de 15 caracteres');
  });

  it('gives the agency E.164 and a wa.me link; nothing for what is no phone', () => {
    expect(dialable('5512345678')).toEqual({
      e164: '+525512345678',
      whatsapp: 'https://wa.me/525512345678',
    });
    expect(dialable('+525512345678')?.e164).toBe('+525512345678');
    expect(dialable('+5215512345678')?.e164).toBe('+525512345678');
    expect(dialable('+14155550123')?.whatsapp).toBe('https://wa.me/14155550123');
    expect(dialable('123')).toBeUndefined();
    expect(dialable('abc')).toBeUndefined();
  });
});
