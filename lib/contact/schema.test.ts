import fc from 'fast-check';
import { CONTACT_FIELDS, type ContactValues } from './fields';
import { CONTACT_MESSAGES as M, validateField } from './rules';
import { contactSchema, validateFields } from './schema';

const valid: ContactValues = {
  name: 'Ana López',
  mail: 'ana@example.mx',
  phone: '55 1234 5678',
  reason: 'Quiero una página web para mi negocio.',
};
const chars = (n: number) => 'a'.repeat(n);
const errorOf = (field: keyof ContactValues, value: string) =>
  validateFields({ ...valid, [field]: value })[field];

describe('contact rules', () => {
  it('accepts a complete, valid enquiry', () => {
    expect(validateFields(valid)).toEqual({});
    expect(
      contactSchema.safeParse({ ...valid, captcha: 'e2e-token-formSubmit-e2e-recaptcha-key' })
        .success,
    ).toBe(true);
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
    for (const bad of [
      'ana',
      'ana@',
      '@example.mx',
      'ana@example',
      'ana example@mail.mx',
      'ana@@example.mx',
      'ana@.mx',
    ]) {
      expect([bad, errorOf('mail', bad)]).toEqual([bad, M.email]);
    }
    for (const good of [
      'ana@example.mx',
      'ana.lopez+citas@sub.example.com.mx',
      'A_B-c@example.io',
    ]) {
      expect([good, errorOf('mail', good)]).toEqual([good, undefined]);
    }
  });

  it('phone: at most 15 characters', () => {
    expect(errorOf('phone', '1')).toBeUndefined();
    expect(errorOf('phone', '+525512345678 9')).toBeUndefined(); // 15 once bare
    expect(errorOf('phone', '+52 55 1234 5678')).toBeUndefined(); // 16 as typed, 13 bare
    expect(errorOf('phone', '+5255123456789 01')).toBe(M.max15); // 16 bare
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

  it('uses exactly the messages of the spec, and two of its own for field hygiene', () => {
    expect(M).toEqual({
      required: 'Este campo es obligatorio',
      min5: 'Este campo debe tener al menos 5 caracteres',
      max100: 'Este campo no debe tener mas de 100 caracteres',
      email: 'Este campo debe ser un email',
      max15: 'Este campo no debe tener mas de 15 caracteres',
      max500: 'Este campo no debe tener mas de 500 caracteres',
      chars: 'Este campo tiene caracteres no permitidos',
      letters: 'Este campo debe incluir letras',
    });
  });
});

describe('field hygiene (only well-formed enquiries are stored)', () => {
  const parsed = (overrides: Partial<ContactValues & { captcha: string }>) =>
    contactSchema.safeParse({ ...valid, captcha: '', ...overrides });
  const captchaOk = (captcha: string) => parsed({ captcha }).success;

  it('refuses a control character in the name, the e-mail or the phone', () => {
    for (const control of [
      '\u0000',
      '\u0007',
      '\n',
      '\r',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
    ]) {
      expect([control, errorOf('name', `Ana${control}López`)]).toEqual([control, M.chars]);
      expect([control, errorOf('mail', `ana${control}@example.mx`)]).toEqual([control, M.chars]);
      expect([control, errorOf('phone', `55${control}1234`)]).toEqual([control, M.chars]);
    }
  });

  it('refuses a Unicode line or paragraph separator in a single-line field', () => {
    expect(errorOf('name', 'Ana\u2028López')).toBe(M.chars);
    expect(errorOf('name', 'Ana\u2029López')).toBe(M.chars);
    expect(errorOf('phone', '55\u20281234')).toBe(M.chars);
  });

  it('keeps line breaks in the reason, normalising pasted CRLF, CR, separators and tabs', () => {
    const result = parsed({ reason: 'Hola,\r\nquiero\tuna web.\rGracias\u2028y\u2029saludos' });
    expect(result.success && result.data.reason).toBe(
      'Hola,\nquiero una web.\nGracias\ny\nsaludos',
    );
    expect(errorOf('reason', 'Hola,\r\nquiero\tuna web.')).toBeUndefined();
  });

  it('counts a posted CRLF as one character, as the browser does', () => {
    expect(errorOf('reason', `${chars(249)}\r\n${chars(250)}`)).toBeUndefined(); // 500 once normalised
  });

  it('refuses any other control character in the reason', () => {
    expect(errorOf('reason', 'Quiero una\u0000 web')).toBe(M.chars);
    expect(errorOf('reason', 'Quiero una\u001b[31m web')).toBe(M.chars);
    expect(errorOf('reason', 'Quiero una\u000b web')).toBe(M.chars);
  });

  it('asks for letters in a name of only digits, punctuation or emoji', () => {
    for (const name of ['12345', '+52 55 1234', '.-.-.-', '😀😀😀😀😀']) {
      expect([name, errorOf('name', name)]).toEqual([name, M.letters]);
    }
  });

  it('accepts names with accents, ñ and other scripts', () => {
    for (const name of [
      'José Ñúñez',
      'Begoña Ibáñez-Ortúzar',
      "D'Artagnan Ü",
      'Zoë 2',
      '李小龙 Chen',
    ]) {
      expect([name, errorOf('name', name)]).toEqual([name, undefined]);
    }
  });

  it('shows one message at a time: length before characters before letters', () => {
    expect(errorOf('name', '1\u00002')).toBe(M.min5);
    expect(errorOf('name', '12\u000034')).toBe(M.chars);
    expect(errorOf('name', '1'.repeat(101))).toBe(M.letters);
  });

  it('accepts no captcha, a realistic reCAPTCHA token and the end-to-end fake', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = `03A${Array.from({ length: 1497 }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('')}`;
    expect(token).toHaveLength(1500);
    expect(captchaOk('')).toBe(true);
    expect(captchaOk(token)).toBe(true);
    expect(captchaOk('e2e-token-formSubmit-e2e-recaptcha-key')).toBe(true);
    expect(captchaOk('a'.repeat(20))).toBe(true);
    // A short stand-in (a test's fake grecaptcha) has the alphabet too.
    expect(captchaOk('e2e-token')).toBe(true);
    expect(captchaOk('a'.repeat(4096))).toBe(true);
  });

  it('refuses a captcha that is not shaped like a token', () => {
    expect(captchaOk('03Aabcdefghij klmnopqrstuvwxyz')).toBe(false);
    expect(captchaOk('03Aabcdefghijklmnopq\u0000rstuvwxyz')).toBe(false);
    expect(captchaOk('03Aabcdefghijklmnopqrstuvwxyz\n')).toBe(false);
    expect(captchaOk('03A=abcdefghijklmnopqrstuvwxyz')).toBe(false);
    expect(captchaOk('a'.repeat(4097))).toBe(false);
  });

  it('gives the same answers field by field, as the form checks while typing', () => {
    const cases: [keyof ContactValues, string, string | undefined][] = [
      ['name', 'Ana\u0000López', M.chars],
      ['name', 'Ana\u2028López', M.chars],
      ['name', '12345', M.letters],
      ['name', 'Begoña Ibáñez', undefined],
      ['mail', 'ana\r\n@example.mx', M.chars],
      ['phone', '55\t1234', M.chars],
      ['reason', 'Hola,\r\nquiero\tuna web.', undefined],
      ['reason', 'Quiero una\u0000 web', M.chars],
    ];
    for (const [field, value, message] of cases) {
      expect([field, value, validateField(field, value)]).toEqual([field, value, message]);
      expect(validateFields({ ...valid, [field]: value })[field]).toBe(message);
    }
  });
});

describe('validateField (rules.ts: what the browser checks while the visitor types, without zod)', () => {
  // Characters each rule looks at: letters of any script, digits, the phone's separators, line breaks and other
  // control characters (C0, DEL, C1), U+2028/9, wide spaces, tabs, an emoji (two UTF-16 units), the e-mail's symbols.
  const interesting = fc.constantFrom(
    ...'aZñÉ文ж5 .-()@+_\'"'.split(''),
    '\n',
    '\r',
    '\r\n',
    '\t',
    '\u0000',
    '\u001f',
    '\u007f',
    '\u0085',
    '\u2028',
    '\u2029',
    '\u00a0',
    '\u2003',
    '\u2010',
    '\u2013',
    '😀',
  );
  const around = (length: number) =>
    fc.integer({ min: length - 2, max: length + 2 }).map((n) => 'a'.repeat(Math.max(0, n)));
  const fieldValue = fc.oneof(
    fc.string({ maxLength: 600 }),
    fc.string({ unit: interesting, maxLength: 40 }),
    fc.string({ unit: interesting, minLength: 95, maxLength: 520 }),
    fc.string({ unit: 'binary', maxLength: 600 }),
    fc.emailAddress(),
    fc.emailAddress().map((mail) => ` ${mail.toUpperCase()}\t`),
    fc.stringMatching(/^\+?[0-9 ().-]{0,22}$/),
    fc.constantFrom(...[5, 15, 100, 500].map((n) => n)).chain(around),
    fc.constantFrom(
      '',
      '   ',
      'ana@example',
      'a@b.mx ',
      '.ana@ej.mx',
      'ana..b@ej.mx',
      'ana@ej..mx',
    ),
  );

  it("gives each field zod's message (the schema the server decides with), for any value", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CONTACT_FIELDS), fieldValue, (field, value) => {
        const result = contactSchema.shape[field].safeParse(value);
        expect(validateField(field, value)).toBe(
          result.success ? undefined : result.error.issues[0]?.message,
        );
        expect(validateField(field, value)).toBe(
          validateFields({ ...valid, [field]: value })[field],
        );
      }),
      { numRuns: 5000 },
    );
  });
});
