import fc from 'fast-check';
import { CONTACT_FIELDS, type ContactValues } from './fields';
import { CONTACT_MESSAGES as M, contactSchema, validateField, validateFields } from './schema';

const valid: ContactValues = {
  name: 'Ana López',
  mail: 'ana@example.mx',
  phone: '55 1234 5678',
  reason: 'Quiero una página web para mi negocio.',
};
const chars = (n: number) => 'a'.repeat(n);
const errorOf = (field: keyof ContactValues, value: string) => validateFields({ ...valid, [field]: value })[field];

describe('contact rules', () => {
  it('accepts a complete, valid enquiry', () => {
    expect(validateFields(valid)).toEqual({});
    expect(contactSchema.safeParse({ ...valid, captcha: 'token' }).success).toBe(true);
  });

  it('requires every field, whitespace alone included', () => {
    for (const field of ['name', 'mail', 'phone', 'reason'] as const) {
      expect(errorOf(field, '')).toBe(M.required);
      expect(errorOf(field, '   ')).toBe(M.required);
    }
  });

  it('name: 5 to 100 characters', () => {
    expect(errorOf('name', chars(4))).toBe(M.min5);
    expect(errorOf('name', chars(5))).toBeUndefined();
    expect(errorOf('name', chars(100))).toBeUndefined();
    expect(errorOf('name', chars(101))).toBe(M.max100);
  });

  it('mail: a valid e-mail of at most 100 characters', () => {
    const mailOf = (length: number) => `${chars(length - '@example.mx'.length)}@example.mx`;
    expect(errorOf('mail', mailOf(100))).toBeUndefined();
    expect(errorOf('mail', mailOf(101))).toBe(M.max100);
    for (const bad of ['ana', 'ana@', '@example.mx', 'ana@example', 'ana example@mail.mx', 'ana@@example.mx', 'ana@.mx']) {
      expect([bad, errorOf('mail', bad)]).toEqual([bad, M.email]);
    }
    for (const good of ['ana@example.mx', 'ana.lopez+citas@sub.example.com.mx', 'A_B-c@example.io']) {
      expect([good, errorOf('mail', good)]).toEqual([good, undefined]);
    }
  });

  it('phone: at most 15 characters', () => {
    expect(errorOf('phone', '1')).toBeUndefined();
    expect(errorOf('phone', '+52 55 12345678')).toBeUndefined(); // 15
    expect(errorOf('phone', '+52 55 123456789')).toBe(M.max15); // 16
  });

  it('reason: 5 to 500 characters', () => {
    expect(errorOf('reason', chars(4))).toBe(M.min5);
    expect(errorOf('reason', chars(5))).toBeUndefined();
    expect(errorOf('reason', chars(500))).toBeUndefined();
    expect(errorOf('reason', chars(501))).toBe(M.max500);
  });

  it('counts length without the surrounding spaces and sends the trimmed text', () => {
    expect(errorOf('name', '   abcd   ')).toBe(M.min5);
    const parsed = contactSchema.safeParse({ ...valid, name: '  Ana López  ', captcha: '' });
    expect(parsed.success && parsed.data.name).toBe('Ana López');
  });

  it('reports every invalid field at once, one message each', () => {
    expect(validateFields({ name: 'Ana', mail: 'x', phone: '', reason: chars(501) })).toEqual({
      name: M.min5,
      mail: M.email,
      phone: M.required,
      reason: M.max500,
    });
  });

  it('accepts nothing but the five fields', () => {
    expect(contactSchema.safeParse({ ...valid, captcha: '', admin: true }).success).toBe(false);
    expect(contactSchema.safeParse({ ...valid }).success).toBe(false); // captcha missing
    expect(contactSchema.safeParse({ ...valid, captcha: 42 }).success).toBe(false);
  });

  it('uses exactly the messages of the spec', () => {
    expect(M).toEqual({
      required: 'Este campo es obligatorio',
      min5: 'Este campo debe tener al menos 5 caracteres',
      max100: 'Este campo no debe tener mas de 100 caracteres',
      email: 'Este campo debe ser un email',
      max15: 'Este campo no debe tener mas de 15 caracteres',
      max500: 'Este campo no debe tener mas de 500 caracteres',
    });
  });
});

describe('validateField (what one keystroke checks)', () => {
  it("gives each field the same message as the whole form's check, for any value", () => {
    const fieldValue = fc.oneof(fc.string({ maxLength: 600 }), fc.emailAddress(), fc.constantFrom('', '   ', 'ana@example', 'a@b.mx '));
    fc.assert(
      fc.property(fc.constantFrom(...CONTACT_FIELDS), fieldValue, (field, value) => {
        expect(validateField(field, value)).toBe(validateFields({ ...valid, [field]: value })[field]);
      }),
    );
  });
});
