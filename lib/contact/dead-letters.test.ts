import { deadLettersCsv } from './dead-letters';
import type { OutboxEntry } from './outbox-entry';

const entry = (overrides: Partial<OutboxEntry>): OutboxEntry => ({
  key: '0b0e5a53-6c1e-4a4e-9d35-5d3f0f7a1b2c',
  enquiry: { name: 'Ñoño Pérez', mail: 'n@example.mx', phone: '5512345678', reason: 'Diseño "web", y anuncios\nen redes', captcha: '' },
  receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
  state: 'dead',
  rounds: 3,
  nextAttemptAt: 0,
  deadAt: Date.UTC(2025, 0, 3),
  deadReason: 'refused',
  refusal: '=HYPERLINK("x")',
  alerted: { pending: true, dead: true },
  ...overrides,
});

describe('dead letters as CSV', () => {
  it('starts with a BOM, quotes what needs quoting, defuses formulas, and leaves pending entries out', () => {
    const csv = deadLettersCsv([entry({}), entry({ key: 'x', state: 'pending' })]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Clave,Recibida,No entregada desde,Por qué,Nombre,Correo,Teléfono,Motivo,Respuesta de la API');
    expect(csv).toContain(
      '0b0e5a53-6c1e-4a4e-9d35-5d3f0f7a1b2c,2025-01-02T03:04:05.000Z,2025-01-03T00:00:00.000Z,rechazada por la API,Ñoño Pérez,n@example.mx,5512345678,"Diseño ""web"", y anuncios\nen redes","\'=HYPERLINK(""x"")"\r\n',
    );
    expect(csv).not.toContain('\r\nx,');
  });
});
