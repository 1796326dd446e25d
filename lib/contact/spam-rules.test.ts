/**
 * @jest-environment node
 */
import { SPAM_RULE_LABELS, spamRule, type SpamRule } from './spam-rules';

type Enquiry = Parameters<typeof spamRule>[0];

const enquiry = (fields: Partial<Enquiry>): Enquiry => ({
  name: 'Ana López',
  mail: 'ana@example.mx',
  phone: '+52 55 1234 5678',
  reason: 'Quiero una página web para mi negocio.',
  ...fields,
});

// Real-looking enquiries from Mexico City small businesses: every one must reach the agency.
const NORMAL: Array<[string, Partial<Enquiry>]> = [
  [
    'accents, ñ and ¿? in a café enquiry',
    {
      name: 'María José Núñez',
      mail: 'majo.nunez@gmail.com',
      reason:
        'Hola, tengo una cafetería en la Roma Norte y quiero una página con menú y reservaciones. ¿Cuánto cuesta?',
    },
  ],
  [
    '"Ma." before the name',
    {
      name: 'Ma. Guadalupe Ortiz',
      reason: 'Buen día. Necesito renovar el logotipo de mi estética en Coyoacán.',
    },
  ],
  [
    '"Ma." without a space',
    { name: 'Ma.Guadalupe Ortiz', reason: 'Quiero informes de sus paquetes de redes sociales.' },
  ],
  [
    '"Ma.de la Luz", where .de would look like a TLD',
    {
      name: 'Ma.de la Luz Ruiz',
      reason: 'Tengo una papelería en Tlalpan y quiero vender en línea.',
    },
  ],
  [
    'a lower-case "ma.elena"',
    { name: 'ma.elena lópez', reason: 'necesito una pagina para mi negocio de pasteles' },
  ],
  [
    '"Lic." glued to the name',
    {
      name: 'Lic.Juan Pérez',
      reason: 'Somos un despacho de abogados en Polanco, buscamos un sitio sobrio.',
    },
  ],
  [
    '"Jr." at the end of the name',
    {
      name: 'José Luis Peña Jr.',
      reason: 'Queremos campañas en Google Ads para nuestro taller mecánico en Iztapalapa.',
    },
  ],
  [
    '"Dra." and an emoji',
    {
      name: 'Dra. Rocío Ibáñez',
      reason: 'Soy dentista en la Del Valle, quiero que mis pacientes agenden citas en línea 🦷',
    },
  ],
  [
    'initials "J. R." and "Dr."',
    {
      name: 'Dr. J. R. Pérez',
      reason: 'Consultorio pediátrico, necesitamos actualizar nuestra página.',
    },
  ],
  [
    '"Ana.María" with an accent',
    { name: 'Ana.María Torres', reason: 'Quisiera una cotización para fotos de producto.' },
  ],
  [
    '"Ana.Maria" without an accent',
    { name: 'Ana.Maria Torres', reason: 'Quisiera una cotización para fotos de producto.' },
  ],
  [
    'an apostrophe and quotes',
    {
      name: "O'Connor López",
      reason:
        'Tenemos una tienda de bicicletas y nos gustaría vender en línea "antes de diciembre".',
    },
  ],
  [
    'a Chinese name with parentheses',
    {
      name: '李 Wei (Chen)',
      reason:
        'Restaurante de comida china en el Centro Histórico, queremos aparecer en Google Maps.',
    },
  ],
  [
    'a company with "S.A. de C.V."',
    {
      name: 'Muebles Ruiz S.A. de C.V.',
      reason: 'Buscamos una agencia para nuestro catálogo digital.',
    },
  ],
  [
    '"<3" in the name',
    { name: 'Ana Ruiz <3', reason: '¡Me encanta su trabajo! ¿Hacen invitaciones digitales?' },
  ],
  [
    'the business website in full',
    {
      name: 'Fernanda Ruiz',
      reason:
        'Nuestra página actual es https://www.panaderiaelsol.com.mx y se ve vieja, ¿pueden rediseñarla?',
    },
  ],
  [
    'a bare domain for the business',
    {
      name: 'Pepe Hernández',
      reason: 'Tengo mi página tacosdonpepe.mx pero no sale en Google. ¿Me ayudan con SEO?',
    },
  ],
  [
    'an Instagram shop',
    {
      name: 'Sofía Ramírez',
      reason: 'Vendo ropa por instagram.com/mitienda y quiero una tienda en línea propia.',
    },
  ],
  [
    'a Facebook page link and text',
    {
      name: 'Lucía Mendoza',
      reason:
        'Esta es nuestra página: https://www.facebook.com/FloreriaLasRosasCDMX quisiéramos un sitio con catálogo.',
    },
  ],
  [
    '"www." followed by a comma',
    { name: 'Raúl Domínguez', reason: 'Mi sitio es www.mitienda.mx, quiero rediseñarlo' },
  ],
  [
    'a greeting and a link: 4 letters besides it',
    { name: 'Héctor Salinas', reason: 'Hola www.mitaller.com.mx' },
  ],
  [
    'a reference design',
    {
      name: 'Paola Quiroz',
      reason: 'Me gusta esto: https://dribbble.com/shots/123 pero más sencillo.',
    },
  ],
  [
    'a ZWJ emoji (woman cook)',
    {
      name: 'Alejandra Cruz',
      reason:
        'Soy chef 👩‍🍳 y doy clases de cocina en la Condesa, necesito una página para inscripciones.',
    },
  ],
  [
    'a family emoji and a flag',
    {
      name: 'Familia Hernández-García',
      reason:
        '👨‍👩‍👧 Somos un negocio familiar de dulces mexicanos 🇲🇽, ¿nos ayudan con el empaque y la página?',
    },
  ],
  [
    'a multi-line reason with a list',
    {
      name: 'Ing. Carlos Ruiz',
      reason:
        'Buenas tardes:\n\nSomos un despacho contable en Polanco.\nNecesitamos:\n- página web\n- correo corporativo\n\nGracias.',
    },
  ],
  [
    '"<3" in the reason',
    {
      name: 'Valeria Soto',
      reason: 'Me encantó su trabajo con la florería de mi prima <3 ¿me mandan una cotización?',
    },
  ],
  [
    '"2 > 1" and ">" between places',
    {
      name: 'Gerardo Ávila',
      reason:
        'Tengo 2 sucursales (Tlalpan > Xochimilco) y quiero una sola página: 2 > 1 en costos.',
    },
  ],
  [
    'a budget in pesos',
    {
      name: 'Rosa Elena Vázquez',
      reason: 'Tengo un presupuesto de $5,000.00 MXN, ¿qué incluye su paquete básico?',
    },
  ],
  [
    '¡! and a question about OXXO',
    { name: 'Íñigo Muñoz', reason: '¡Hola! ¿Hacen tiendas en línea con pagos en OXXO?' },
  ],
  [
    'a Nahuatl name and food emoji',
    {
      name: 'Xóchitl Tzompantzi',
      reason: 'Tengo un restaurante de comida oaxaqueña 🌮🌶️ en la Narvarte.',
    },
  ],
  [
    'capitals only',
    {
      name: 'JUAN CARLOS GÓMEZ',
      reason: 'QUIERO INFORMES DE SU SERVICIO DE REDES SOCIALES PARA MI FERRETERÍA',
    },
  ],
  [
    'an e-mail address in the reason',
    {
      name: 'Mario García',
      reason: 'Prefiero que me escriban a contacto@mueblesgarcia.mx, gracias.',
    },
  ],
  [
    'an e-mail address in the name',
    {
      name: 'Ana López (ana@tienda.mx)',
      reason: 'Quiero una tienda en línea para mis velas aromáticas.',
    },
  ],
  [
    'Spanish quotation marks',
    {
      name: 'Beatriz Olvera',
      reason: 'Nuestro lema es «hecho a mano» y queremos que la página lo transmita.',
    },
  ],
  [
    '"[LinkedIn]" in brackets',
    {
      name: 'Diego Castañeda',
      reason: 'Me los recomendaron en [LinkedIn] y [urgente] necesito branding.',
    },
  ],
  [
    'a "<Comprar ahora>" button idea',
    { name: 'Ximena Bravo', reason: 'Quiero un botón que diga <Comprar ahora> en cada producto.' },
  ],
  [
    '"www" as a word',
    {
      name: 'Ernesto Fuentes',
      reason: '¿Qué significa el www en mi dominio? Quiero entenderlo antes de contratar.',
    },
  ],
  [
    'a phone with parentheses and a dash',
    { name: 'Claudia Ochoa', phone: '(55) 1234-5678', reason: 'Cotización, por favor.' },
  ],
  [
    'a phone with +52 and spaces',
    {
      name: 'Luis Ángel Reyes',
      phone: '+52 1 55 1234 5678',
      reason: 'Llámenme por la tarde, es para una estética canina 🐶.',
    },
  ],
];

// Spam signatures, each with the rule that catches it first.
const SPAM: Array<[string, Partial<Enquiry>, SpamRule]> = [
  [
    'SEO spam with a link in the name',
    { name: 'Get cheap backlinks http://seo-boost.ru' },
    'link-in-name',
  ],
  ['casino spam with "www." in the name', { name: 'Casino BONUS www.win777.com' }, 'link-in-name'],
  ['a crypto domain as the name', { name: 'crypto-profit.io' }, 'link-in-name'],
  ['a bare domain as the name', { name: 'promo.ru' }, 'link-in-name'],
  ['a bare domain with a path in the name', { name: 'cheap-seo.com/x' }, 'link-in-name'],
  ['a domain after a first name', { name: 'Mike from seo-agency.com' }, 'link-in-name'],
  ['an upper-case TLD in the name', { name: 'Maria 🎰 BONUS.CASINO' }, 'link-in-name'],
  [
    'an HTML link as the name (the link is seen first)',
    { name: '<a href="http://x.ru">Buy</a>' },
    'link-in-name',
  ],
  ['bold tags in the name', { name: '<b>SEO</b> services' }, 'html-in-name'],
  ['a script tag in the name', { name: '</script><script>alert(1)</script>' }, 'html-in-name'],
  [
    'a reason made of three links',
    { reason: 'https://spam.ru https://x.com http://bit.ly/abc' },
    'only-links',
  ],
  [
    'bare domains and punctuation only',
    { reason: 'promo.shop, spam.online; casino.bet' },
    'only-links',
  ],
  [
    'upper-case web addresses on two lines',
    { reason: 'WWW.CRYPTO-X.IO\nwww.casino.bet' },
    'only-links',
  ],
  ['two letters and two links', { reason: 'Hi https://x.ru https://y.ru' }, 'only-links'],
  ['a BBCode link', { reason: '[url=http://pills.example]cheap pills[/url]' }, 'bbcode'],
  ['a BBCode image', { reason: '[img]http://x/a.png[/img]' }, 'bbcode'],
  ['upper-case BBCode', { reason: 'Great site [URL]http://x.ru[/URL] thanks' }, 'bbcode'],
  ['BBCode in the phone field', { phone: '[url=http://x.ru]x[/url]' }, 'bbcode'],
  [
    'an HTML link as the reason',
    { reason: '<a href="https://spam.example">click</a>' },
    'html-link',
  ],
  [
    'an upper-case HTML link with attributes',
    { reason: 'Best crypto <A class="x" HREF="https://coin.example">profits</A> today' },
    'html-link',
  ],
];

describe('spam rules', () => {
  test.each(NORMAL)('lets an enquiry through: %s', (_label, fields) => {
    expect(spamRule(enquiry(fields))).toBeNull();
  });

  test.each(SPAM)('flags spam: %s', (_label, fields, rule) => {
    expect(spamRule(enquiry(fields))).toBe(rule);
  });

  it('leaves a reason with words around a link to a person, even in English', () => {
    expect(spamRule(enquiry({ reason: 'Get cheap backlinks http://seo-boost.ru' }))).toBeNull();
  });

  it('has examples of spam for every rule', () => {
    expect(new Set(SPAM.map(([, , rule]) => rule))).toEqual(new Set(Object.keys(SPAM_RULE_LABELS)));
  });

  it('gives every rule its own Spanish label', () => {
    const rules: SpamRule[] = ['link-in-name', 'html-in-name', 'only-links', 'bbcode', 'html-link'];
    expect(Object.keys(SPAM_RULE_LABELS).sort()).toEqual([...rules].sort());
    const labels = rules.map((rule) => SPAM_RULE_LABELS[rule]);
    expect(new Set(labels).size).toBe(rules.length);
    for (const label of labels) expect(label).toMatch(/^(El|Contiene) /);
  });

  // No absolute time: machines differ up to 4x and a busy one far more. Each
  // attack is timed against a normal 3,000-character post, medians of runs
  // interleaved with it. Today every attack takes less than the normal post
  // (0.7 times at most); a pattern that backtracks over the whole post takes
  // many times it (a `\s*` before HTML_TAG: 19 times).
  it('judges a 3,000-character adversarial post no slower than 10 times a normal one', () => {
    const attacks = [
      'a.'.repeat(1500),
      'www.'.repeat(750),
      'ab.'.repeat(1000),
      'http://'.repeat(428),
      '<a '.repeat(1000),
      '<a\t'.repeat(999) + 'x',
      '[url'.repeat(750),
      '!'.repeat(2999) + 'a',
      `${'a-'.repeat(1499)}.`,
      ' '.repeat(2999) + 'x',
    ];
    const normal = 'Hola, quiero una página web para mi taquería en Coyoacán, con menú y pedidos. '
      .repeat(40)
      .slice(0, 3000);
    const millisecondsFor = (text: string) => {
      const started = performance.now();
      spamRule({ name: text, mail: text, phone: text, reason: text });
      return performance.now() - started;
    };
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    millisecondsFor(normal); // compile the patterns before timing
    const runs = 7;
    const normalTimes: number[] = [];
    const attackTimes = attacks.map(() => [] as number[]);
    for (let run = 0; run < runs; run++) {
      normalTimes.push(millisecondsFor(normal));
      attackTimes.forEach((times, index) => times.push(millisecondsFor(attacks[index] ?? '')));
    }
    const ratios = attackTimes.map((times) => median(times) / median(normalTimes));
    expect(Math.max(...ratios)).toBeLessThan(10);
  });
});
