import { fakeLead } from '@/test-support/fake-world';
import { deadLettersCsv, leadsCsv, type DeadLetter } from './csv';

const ENQUIRY = {
  name: 'Ñoño Pérez',
  mail: 'n@example.mx',
  phone: '5512345678',
  reason: 'Diseño "web", y anuncios\nen redes',
  captcha: '',
};
const entry = ({
  key = '0b0e5a53-6c1e-4a4e-9d35-5d3f0f7a1b2c',
  enquiry = ENQUIRY,
} = {}): DeadLetter => ({
  lead: {
    key,
    enquiry,
    receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
    backoffSeconds: [60],
    keepMs: 1000,
  },
  outcome: {
    outcome: 'dead',
    reason: 'refused',
    refusal: '=HYPERLINK("x")',
    deadAt: Date.UTC(2025, 0, 3),
  },
});

const rowsOf = (csv: string) => csv.slice(1).split('\r\n');
const deadWith = (enquiry: Partial<typeof ENQUIRY>) =>
  entry({ enquiry: { ...ENQUIRY, ...enquiry } });

describe('dead letters as CSV', () => {
  it('starts with a BOM and quotes every cell', () => {
    const csv = deadLettersCsv([entry()]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(rowsOf(csv)[0]).toBe(
      '"Clave","Recibida","No entregada desde","Por qué","Nombre","Correo","Teléfono","Motivo","Respuesta de la API","Origen (esta visita)","Origen (primera visita)","Experimento","Variante"',
    );
    expect(csv).toContain(
      '"0b0e5a53-6c1e-4a4e-9d35-5d3f0f7a1b2c","2025-01-02T03:04:05.000Z","2025-01-03T00:00:00.000Z","rechazada por la API","Ñoño Pérez","n@example.mx","5512345678","Diseño ""web"", y anuncios\nen redes","\'=HYPERLINK(""x"")","","","",""\r\n',
    );
  });

  it('says where each lead came from: the visit that sent it and the first one', () => {
    const letter = entry();
    letter.lead.source = {
      last: { utm_source: 'facebook', utm_campaign: '=cmd', landing: '/', at: 1 },
      first: { gclid: 'abc', referrer: 'https://www.google.com', at: 0 },
    };
    expect(rowsOf(deadLettersCsv([letter]))[1]).toMatch(
      /,"utm_source: facebook; utm_campaign: =cmd; página de llegada: \/","gclid: abc; llegó desde: https:\/\/www\.google\.com","",""$/,
    );
  });

  it('names the experiment and variant in two columns of their own, after every older one', () => {
    const letter = entry();
    letter.lead.source = {
      last: { utm_source: 'google', at: 1 },
      experiments: [{ name: 'titular-verano', variant: 'b' }],
    };
    const [header, row] = rowsOf(deadLettersCsv([letter, entry({ key: 'de-un-build-anterior' })]));
    const columns = header?.split(',') ?? [];
    // A sheet that reads the columns by position reads the older ones where they always were.
    expect(columns.slice(0, 11)).toEqual(rowsOf(deadLettersCsv([]))[0]?.split(',').slice(0, 11));
    expect(columns.slice(11)).toEqual(['"Experimento"', '"Variante"']);
    expect(row).toMatch(/,"utm_source: google","","titular-verano","b"$/);
  });

  it('leaves both cells empty for a lead kept before experiments, or whose names do not hold', () => {
    const odd = entry();
    odd.lead.source = { experiments: [{ name: '=HYPERLINK("x")', variant: 'b' }] };
    const rows = rowsOf(deadLettersCsv([entry(), odd]));
    for (const row of rows.slice(1, 3)) expect(row).toMatch(/,"",""$/);
  });
});

describe('any list of leads as CSV (the staff page)', () => {
  it('ends each row with the experiment and variant, empty when there was none', () => {
    const runs = [
      { runId: 'wrun_1', state: 'spam' as const, lead: fakeLead(1, { spamRule: 'only-links' }) },
      {
        runId: 'wrun_2',
        state: 'dead' as const,
        lead: fakeLead(2, {
          source: {
            experiments: [
              { name: 'cta-precio', variant: 'control' },
              { name: 'orden', variant: 'c' },
            ],
          },
        }),
      },
    ];
    const [header, first, second] = rowsOf(leadsCsv(runs));
    expect(header).toMatch(
      /,"Origen \(esta visita\)","Origen \(primera visita\)","Experimento","Variante"$/,
    );
    expect(first).toMatch(/^"clave-1",.*,"",""$/);
    // Two experiments: each cell lists them in the same order.
    expect(second).toMatch(/^"clave-2",.*,"cta-precio; orden","control; c"$/);
  });

  it('neutralises formulas at the start of a cell and after a comma or a semicolon', () => {
    const csv = deadLettersCsv([
      deadWith({
        name: 'x;=HYPERLINK("http://evil")',
        mail: 'x,=1+1',
        phone: '@SUM(A1)',
        reason: 'Hola; \t-2+3, +cmd',
      }),
    ]);
    const row = rowsOf(csv)[1];
    expect(row).toContain('"x;\'=HYPERLINK(""http://evil"")"');
    expect(row).toContain('"x,\'=1+1"');
    expect(row).toContain('"\'@SUM(A1)"');
    expect(row).toContain('"Hola; \'\t-2+3, \'+cmd"');
  });

  it('neutralises a cell that starts with a tab or a carriage return', () => {
    const row = rowsOf(deadLettersCsv([deadWith({ name: '\t=1', phone: '\r=2' })]))[1];
    expect(row).toContain('"\'\t=1"');
    expect(row).toContain('"\'\r=2"');
  });

  it('leaves an ordinary Spanish reason unchanged inside its quotes', () => {
    const reason =
      'Hola, soy dueña de una panadería en Coyoacán; necesito página, anuncios y diseño (¿cuánto cuesta?).';
    const row = rowsOf(deadLettersCsv([deadWith({ reason })]))[1];
    expect(row).toContain(`,"${reason}",`);
  });
});
