import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { sealData } from 'iron-session';
import { VALUES_HEADER } from '../lib/proxy/stale-form';
import { SOURCE_PARAMS } from '../lib/contact/source';
import { ROOT } from '../test-support/harness';
import { sendRaw, type RawAnswer, type RawRequest } from './support/raw-http';
import { startServer } from './support/server';
import { BAD_INPUT_PORT, DATA_DIR, E2E_BUILD_ENV } from './support/test-env';

/*
 * Every door of the production build, tried with generated bad input as a stranger's script would: each route in the
 * build's manifests (pages, route handlers, metadata routes, the engine's routes), each Server Action by its id on each
 * page that has it, the proxy's paths, the not-found page, the image optimiser and the static files. Whatever the
 * input, the answer is never a 5xx and shows no stack trace or path of the build. Requests are written byte for byte
 * (node:net): fetch would mend the very targets under test. fast-check draws the inputs from a fixed seed
 * (BAD_INPUT_SEED, BAD_INPUT_RUNS to change them); every distinct failure of the run is listed at the end, by area.
 */

const SEED = Number(process.env.BAD_INPUT_SEED ?? 48);
/** Inputs drawn for each door and variant of bad input. */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 1);
const SECRET = 'secreto-de-las-sesiones-del-equipo-e2e-0123456789';
const STAFF = 'equipo@agencia.e2e.test';

test.setTimeout(240_000);

/** Whose code answers a door: the engine's routes and the staff area are fixed on their own. */
type Area = 'site' | 'staff' | 'engine';
/** A way in: a path (a dynamic segment as `[name]`), and the action's id when it is a Server Action on that page. */
type Door = { label: string; path: string; action?: string };
/** A kind of bad input, in variants that name it in the report; fast-check draws each variant's details. */
type Kind = [
  name: string,
  variants: Record<string, fc.Arbitrary<RawRequest | Promise<RawRequest>>>,
];

const areaOf = (door: Door): Area =>
  door.path.startsWith('/.well-known/workflow/')
    ? 'engine'
    : /^\/equipo(\/|$)/.test(door.path)
      ? 'staff'
      : 'site';

const readJson = <T>(file: string): T =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;

function doors(): Door[] {
  const routes = readJson<Record<string, string>>('.next/app-path-routes-manifest.json');
  const found: Door[] = [...new Set(Object.values(routes))].map((route) => ({
    label: route,
    path: route,
  }));
  // The proxy's own paths, and the not-found page from inside and outside its matcher.
  for (const route of [
    '/home',
    '/x/y',
    '/api',
    '/api/nada',
    '/nada.txt',
    '/favicon.ico',
    '/icon',
    '/.well-known/nada',
  ])
    found.push({ label: route, path: route });
  found.push({ label: '/_next/image', path: '/_next/image' });
  const files = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  for (const file of files('public'))
    found.push({ label: 'public/', path: `/${path.relative('public', file)}` });
  for (const folder of ['chunks', 'media']) {
    const first = readdirSync(path.join(ROOT, '.next/static', folder)).find((name) =>
      /\.\w+$/.test(name),
    );
    if (first)
      found.push({ label: `/_next/static/${folder}/`, path: `/_next/static/${folder}/${first}` });
  }
  const actions = readJson<{
    node: Record<string, { workers: Record<string, unknown>; exportedName: string }>;
  }>('.next/server/server-reference-manifest.json');
  for (const [id, { workers, exportedName }] of Object.entries(actions.node))
    for (const worker of Object.keys(workers)) {
      const page = routes[worker.replace(/^app/, '')] ?? '/';
      found.push({ label: `action ${exportedName} on ${page}`, path: page, action: id });
    }
  return found;
}

// Each is a property every plain object inherits: a lookup in one finds something whichever is drawn.
const PROTO_WORDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const BAD_PERCENT = [
  '%',
  '%%',
  '%z',
  '%zz',
  '%2',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%00',
  '%u0041',
];
// Every parameter the site reads somewhere, tried on every door at once.
const PARAMS = [
  ...SOURCE_PARAMS,
  'enlace',
  'aviso',
  'lista',
  't',
  'url',
  'w',
  'q',
  '__health',
  'salida',
];
const COOKIES = ['equipo_sesion', 'equipo_pendiente', 'origen', 'origen_primero', '_fbp', '_fbc'];
const ODD_METHODS = [
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'PURGE',
  'FOO',
  'get',
];
const BOUNDARY = '----sin-fin';

const protoWord = fc.constantFrom(...PROTO_WORDS);
const badPercent = fc.constantFrom(...BAD_PERCENT);
/** Printable ASCII, as a header value can carry it. */
const headerText = fc.string({
  minLength: 1,
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
});
const junk = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const segment = fc.oneof(
  protoWord,
  badPercent,
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.constant('x'.repeat(300)),
);
/** The door's path with its dynamic segment filled. */
const where = (door: Door) => segment.map((value) => door.path.replace(/\[[^\]]+\]/g, value));
/** A query naming every parameter, each with a value of its own. */
const everyParam = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(...PARAMS.map(() => value))
    .map((values) => PARAMS.map((name, i) => `${name}=${values[i]}`).join('&'));

/** A stranger's sealed cookie or link token, drawn by the three arbitraries below. */
type Forged = string | { password: string; payload: unknown; cut: number };
const b64url = fc
  .uint8Array({ maxLength: 32 })
  .map((bytes) => Buffer.from(bytes).toString('base64url'));
/** iron's shape (`Fe26.2*…*…`, eight parts), of any version, mostly with its eight parts, the parts random. */
const ironShaped = fc
  .tuple(
    fc.constantFrom('1', '2', '3', '9', ''),
    fc.oneof(
      { weight: 3, arbitrary: fc.array(b64url, { minLength: 7, maxLength: 7 }) },
      { weight: 1, arbitrary: fc.array(b64url, { maxLength: 9 }) },
    ),
    fc.boolean(),
  )
  .map(
    ([version, parts, persistent]) =>
      `${[`Fe26.${version}`, ...parts].join('*')}${persistent ? '~2' : ''}`,
  );
/** Sealed with another secret, or with ours around something no session is; whole or cut. */
const sealedElsewhere = fc
  .tuple(
    fc.constantFrom('otro-secreto-de-al-menos-treinta-y-dos-caracteres', SECRET),
    fc.jsonValue(),
    fc.nat(),
  )
  .map(([password, payload, cut]): Forged => ({ password, payload, cut }));
const garbageValue = fc.oneof(protoWord, badPercent, headerText);
async function sealed(value: Forged): Promise<string> {
  if (typeof value === 'string') return value;
  const seal = await sealData(value.payload as Record<string, unknown>, {
    password: value.password,
    ttl: 600,
  });
  // Whole half the time, else cut somewhere.
  return value.cut % 2 ? seal : seal.slice(0, value.cut % seal.length);
}

const multipart = (fields: Array<[string, string]>) =>
  fields
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('') + `--${BOUNDARY}--\r\n`;
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;

type Body = { type: string; body: string };
/** Bodies that do not say what they are, or say it wrongly. */
const BAD_BODIES: Record<string, fc.Arbitrary<Body>> = {
  'multipart without a boundary': junk.map((body) => ({ type: 'multipart/form-data', body })),
  'multipart, empty boundary': junk.map((body) => ({
    type: 'multipart/form-data; boundary=',
    body,
  })),
  'multipart cut short': fc.tuple(junk, fc.nat()).map(([text, cut]) => {
    const whole = multipart([['correo', text]]);
    return { type: FORM, body: whole.slice(0, cut % (whole.length - 4)) };
  }),
  'multipart of another boundary': junk.map((text) => ({ type: FORM, body: `--otro\r\n${text}` })),
  'invalid JSON': junk.map((text) => ({ type: 'application/json', body: `{"a":${text}` })),
  'an unknown charset': fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
    type: 'text/plain; charset=x-desconocido',
    body: Buffer.concat([Buffer.from([0xff, 0xfe, 0xc0]), bytes]).toString('latin1'),
  })),
  'bad urlencoded': badPercent.map((bad) => ({
    type: 'application/x-www-form-urlencoded',
    body: `${bad}=&a`,
  })),
  'text/x-component garbage': junk.map((body) => ({ type: 'text/x-component', body })),
  'no content-type': junk.map((body) => ({ type: '', body })),
};
const anyBadBody = fc.oneof(...Object.values(BAD_BODIES));
const typed = (type: string): Array<[string, string]> => (type ? [['Content-Type', type]] : []);
const get = (target: string, headers: Array<[string, string]> = []): RawRequest => ({
  method: 'GET',
  target,
  headers,
});
const post = (
  target: string,
  { type, body }: Body,
  headers: Array<[string, string]> = [],
): RawRequest => ({
  method: 'POST',
  target,
  headers: [...headers, ...typed(type)],
  body,
});

/**
 * The kinds of bad input every door gets, each in named variants: every variant is sent to every door, and fast-check
 * draws its details (which word, which bytes, which forgery).
 */
function inputsFor(door: Door): Kind[] {
  const at = where(door);
  // The page itself is a door of its own: an action's gets what only an action reads.
  if (door.action) return actionInputs(door.action, at);
  return [
    ...(door.path === '/_next/image' ? imageInputs() : []),
    [
      'bad percent-encoding',
      {
        'in the path': fc
          .tuple(at, badPercent, fc.boolean())
          .map(([to, bad, own]) => get(`${to}${own ? '/' : ''}${bad}`)),
        'in every parameter': fc
          .tuple(at, everyParam(badPercent), badPercent)
          .map(([to, query, bad]) => get(`${to}?${query}&${bad}=x`)),
      },
    ],
    [
      'over-long',
      {
        path: fc
          .tuple(at, fc.integer({ min: 2_000, max: 20_000 }))
          .map(([to, size]) => get(`${to}/${'a'.repeat(size)}`)),
        query: fc
          .tuple(at, fc.integer({ min: 2_000, max: 20_000 }))
          .map(([to, size]) => get(`${to}?t=${'a'.repeat(size)}`)),
      },
    ],
    [
      'prototype words',
      {
        'as every parameter': fc
          .tuple(at, protoWord)
          .map(([to, word]) => get(`${to}?${PARAMS.map((name) => `${name}=${word}`).join('&')}`)),
        'as names': fc
          .tuple(at, protoWord, protoWord)
          .map(([to, name, word]) => get(`${to}?${name}=1&${name}[${word}]=1`)),
      },
    ],
    [
      'odd method',
      {
        // Node takes it, fetch's Request refuses it.
        TRACE: at.map((to) => ({ method: 'TRACE', target: to })),
        bare: fc
          .tuple(at, fc.constantFrom(...ODD_METHODS))
          .map(([to, method]) => ({ method, target: to })),
        'with a body': fc
          .tuple(at, fc.constantFrom(...ODD_METHODS), junk)
          .map(([to, method, body]) => ({
            method,
            target: to,
            headers: typed('text/plain'),
            body,
          })),
      },
    ],
    [
      'garbage body',
      Object.fromEntries(
        Object.entries(BAD_BODIES).map(([variant, body]) => [
          variant,
          fc.tuple(at, body).map(([to, sent]) => post(to, sent)),
        ]),
      ),
    ],
    [
      'unknown action id',
      Object.fromEntries(
        Object.entries({
          'an unknown id': fc.stringMatching(/^[0-9a-f]{42}$/),
          'a prototype word': protoWord,
          garbage: headerText,
          '4,000 characters': fc.constant('7f'.repeat(2_000)),
        }).map(([variant, id]) => [
          variant,
          fc
            .tuple(at, id, anyBadBody)
            .map(([to, named, body]) => post(to, body, [['Next-Action', named]])),
        ]),
      ),
    ],
    [
      'forged cookies',
      Object.fromEntries(
        (
          [
            ['iron-shaped', 'GET', ironShaped],
            ['sealed elsewhere, or cut', 'GET', sealedElsewhere],
            ['garbage', 'GET', garbageValue],
            ['iron-shaped', 'POST', ironShaped],
          ] as const
        ).map(([variant, method, value]) => [
          `every cookie ${variant}, ${method}`,
          fc
            .tuple(at, fc.tuple(...COOKIES.map(() => value)), protoWord)
            .map(async ([to, values, word]) => {
              const jar = await Promise.all(
                COOKIES.map(async (name, i) => `${name}=${await sealed(values[i] ?? '')}`),
              );
              const cookie: [string, string] = ['Cookie', [...jar, `${word}=${word}`].join('; ')];
              return method === 'GET'
                ? get(to, [cookie])
                : post(to, { type: FORM, body: multipart([['correo', STAFF]]) }, [cookie]);
            }),
        ]),
      ),
    ],
    [
      'forged link token',
      Object.fromEntries(
        Object.entries({
          'iron-shaped': ironShaped,
          'sealed elsewhere, or cut': sealedElsewhere,
          garbage: garbageValue,
        }).map(([variant, token]) => [
          variant,
          fc
            .tuple(at, token)
            .map(async ([to, value]) => get(`${to}?t=${encodeURIComponent(await sealed(value))}`)),
        ]),
      ),
    ],
    [
      'odd request headers',
      Object.fromEntries(
        Object.entries({
          'forged internal values': fc.constantFrom<Array<[string, string]>>(
            [[VALUES_HEADER, btoa('{"__proto__":{"name":1},"name":["x"]}')]],
            [[VALUES_HEADER, '%%%']],
            [['Next-Router-State-Tree', '%zz']],
            [['RSC', '1']],
          ),
          'forwarding headers': fc.constantFrom<Array<[string, string]>>(
            [['X-Forwarded-For', '999.1.1.1, __proto__']],
            [['X-Forwarded-Host', '%zz']],
            [['X-Forwarded-Proto', 'gopher']],
            [['Referer', 'http://[::1']],
          ),
          'ranges and preconditions': fc.constantFrom<Array<[string, string]>>(
            [['Range', 'bytes=999999999-']],
            [['Range', 'bytes=5-1']],
            [['If-Match', '"nada"']],
            [['If-Unmodified-Since', 'Mon, 01 Jan 1990 00:00:00 GMT']],
          ),
        }).map(([variant, headers]) => [
          variant,
          fc.tuple(at, headers).map(([to, sent]) => get(to, sent)),
        ]),
      ),
    ],
  ];
}

/** The image optimiser's own parameters: a picture from elsewhere, or of an odd size or quality. */
function imageInputs(): Kind[] {
  const image = (url: string, w: string, q: string) =>
    get(
      `/_next/image?url=${encodeURIComponent(url)}&w=${encodeURIComponent(w)}&q=${encodeURIComponent(q)}`,
    );
  const ours = '/images/logo.svg';
  return [
    [
      'image parameters',
      {
        'a picture from elsewhere': fc
          .constantFrom(
            '//otro-sitio.example/x.png',
            'http://127.0.0.1:1/x.png',
            '/api/contact/token',
            '/equipo/exportar',
            '/_next/image?url=%2Fimages%2Flogo.svg&w=64&q=75',
            '/%zz',
            '__proto__',
          )
          .map((url) => image(url, '64', '75')),
        'an odd width or quality': fc
          .tuple(
            fc.constantFrom('64', '-1', '0', '1e3', '99999999999', 'abc', '__proto__'),
            fc.constantFrom('75', '0', '101', 'abc', '-1', 'constructor'),
          )
          .map(([w, q]) => image(ours, w, q)),
      },
    ],
  ];
}

/** An action's own id with another site's Origin, arguments it cannot decode or read, or a form of odd fields. */
function actionInputs(id: string, at: fc.Arbitrary<string>): Kind[] {
  const island = (to: string, body: string, headers: Array<[string, string]> = []) =>
    post(to, { type: 'text/plain;charset=UTF-8', body }, [['Next-Action', id], ...headers]);
  const form = (to: string, fields: Array<[string, string]>) =>
    post(to, { type: FORM, body: multipart(fields) });
  const oddFields = fc.array(
    fc.tuple(fc.oneof(protoWord, fc.constantFrom(...PARAMS, 'correo', 'clave')), junk),
    {
      maxLength: 4,
    },
  );
  return [
    [
      'foreign origin',
      {
        'another site': at.map((to) =>
          island(to, '[]', [['Origin', 'https://otro-sitio.example']]),
        ),
        'null, or none a browser sends': fc
          .tuple(at, fc.constantFrom('null', 'garbage', 'http://'))
          .map(([to, origin]) => island(to, '[]', [['Origin', origin]])),
      },
    ],
    [
      'mistyped action arguments',
      {
        'not JSON': fc
          .tuple(at, fc.constantFrom('[', '', 'x', '[1,]'))
          .map(([to, body]) => island(to, body)),
        'a reference to nothing': fc
          .tuple(
            at,
            fc.constantFrom('["$Q1"]', '["$"]', '["$h1"]', '[{"a":"$@9"}]', '["$B1"]', '["$nx"]'),
          )
          .map(([to, body]) => island(to, body)),
        'values of the wrong type': fc
          .tuple(
            at,
            fc.oneof(
              fc.constantFrom('""', '[1]', '[null,null]', '[{},{}]'),
              fc.jsonValue().map((v) => JSON.stringify([v, v])),
            ),
          )
          .map(([to, body]) => island(to, body)),
      },
    ],
    [
      'no-JavaScript form',
      {
        'bound to a part it lacks': fc
          .tuple(at, oddFields)
          .map(([to, fields]) =>
            form(to, [
              ['$ACTION_REF_1', ''],
              ['$ACTION_1:0', `{"id":"${id}","bound":"$@7"}`],
              ...fields,
            ]),
          ),
        'of broken state': fc
          .tuple(at, fc.constantFrom('[', '{"id":', '"$Q1"'), oddFields)
          .map(([to, state, fields]) =>
            form(to, [['$ACTION_REF_1', ''], ['$ACTION_1:0', state], ...fields]),
          ),
        'of odd fields': fc
          .tuple(at, oddFields)
          .map(([to, fields]) => form(to, [[`$ACTION_ID_${id}`, ''], ...fields])),
      },
    ],
  ];
}

/** What is wrong with an answer: a 5xx, none at all, a stack trace, a path of the build. */
function problemsOf(answer: RawAnswer): string[] {
  const found: string[] = [];
  if (answer.status === 0) found.push('no answer');
  if (answer.status >= 500) found.push(String(answer.status));
  if (/^[ \t]+at \S/m.test(answer.body)) found.push('stack trace');
  if (answer.body.includes(ROOT) || /\/\.next\/server\/|webpack-internal:/.test(answer.body))
    found.push('path of the build');
  return found;
}

const brief = ({ method, target, headers = [], body }: RawRequest) => {
  const named = headers.map(([name, value]) => `${name}: ${value.slice(0, 60)}`).join('; ');
  const sent = body === undefined ? '' : ` body ${JSON.stringify(String(body).slice(0, 80))}`;
  return `${method} ${target.slice(0, 400)}${named ? ` [${named}]` : ''}${sent}`;
};

let server: { url: string; kill: () => void } | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer(
    BAD_INPUT_PORT,
    {
      ...E2E_BUILD_ENV,
      // The staff area configured, so its routes are real.
      STAFF_EMAILS: STAFF,
      STAFF_SESSION_SECRET: SECRET,
      NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${BAD_INPUT_PORT}`,
      CONTACT_INBOX_DIR: `${DATA_DIR}/bad-input`,
    },
    'e2e/.server-bad-input.log',
  );
});
test.afterAll(() => server?.kill());

test('no door of the build answers bad input with a 5xx or a stack trace', async () => {
  type Failure = {
    area: Area;
    problem: string;
    kind: string;
    variant: string;
    doors: Set<string>;
    example: string;
  };
  const failures = new Map<string, Failure>();
  let sent = 0;
  let seed = SEED;
  for (const door of doors())
    for (const [kind, variants] of inputsFor(door))
      for (const [variant, arbitrary] of Object.entries(variants))
        for (const drawn of fc.sample(arbitrary, { seed: seed++, numRuns: RUNS })) {
          const request = await drawn;
          const answer = await sendRaw(BAD_INPUT_PORT, request);
          sent += 1;
          for (const problem of problemsOf(answer)) {
            const area = areaOf(door);
            const key = [area, problem, kind, variant].join('|');
            const failure = failures.get(key) ?? {
              area,
              problem,
              kind,
              variant,
              doors: new Set(),
              example: brief(request),
            };
            failure.doors.add(door.label);
            failures.set(key, failure);
          }
        }
  const report = (['site', 'staff', 'engine'] as const).flatMap((area) => {
    const lines = [...failures.values()]
      .filter((failure) => failure.area === area)
      .sort((a, b) => `${a.kind} ${a.variant}`.localeCompare(`${b.kind} ${b.variant}`))
      .map(
        (f) =>
          `  ${f.problem} · ${f.kind} · ${f.variant} · on ${[...f.doors].join(', ')}\n      e.g. ${f.example}`,
      );
    return lines.length > 0 ? [`${area}:`, ...lines] : [];
  });
  console.log(`${sent} requests, seed ${SEED}, ${RUNS} per door and variant of bad input`);
  expect(
    failures.size,
    `${failures.size} distinct failures in ${sent} requests (BAD_INPUT_SEED=${SEED} BAD_INPUT_RUNS=${RUNS} draws the same):\n` +
      report.join('\n'),
  ).toBe(0);
});
