/**
 * @jest-environment node
 */
import { NextRequest } from 'next/server';
import { countVisit } from '../experiments/counters';
import { checkExperiments, type ExperimentDefinition } from '../experiments/definitions';
import { experimentCodes } from '../experiments/flags';
import { dayOf, parseVisitor, QA_COOKIE, VISITOR_COOKIE } from '../experiments/visitor';
import { experimentResponse, PRIVATE_PAGE } from './experiments';

jest.mock('../experiments/counters', () => ({ countVisit: jest.fn(() => Promise.resolve()) }));
const counted = jest.mocked(countVisit);

const BASE = 'https://agencia.example';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const definition: ExperimentDefinition = {
  name: 'titulo',
  runs: true,
  variants: [
    { id: 'control', label: 'Actual' },
    { id: 'b', label: 'Precio', overrides: { 'hero.headline': 'Desde $4,990' } },
  ],
  split: [50, 50],
};
const { running } = checkExperiments([definition]);
const codes = experimentCodes(running);

/** The proxy's answer to a request for `/`, and what it left to do after answering. */
async function visit(
  init: { url?: string; method?: string; headers?: Record<string, string> } = {},
) {
  const waited: Promise<unknown>[] = [];
  const request = new NextRequest(init.url ?? `${BASE}/`, {
    method: init.method ?? 'GET',
    headers: { 'user-agent': CHROME, ...init.headers },
  });
  const response = await experimentResponse(
    request,
    { waitUntil: (promise) => void waited.push(promise) },
    running,
    codes,
  );
  await Promise.all(waited);
  return { response, waited };
}

const rewrittenTo = async (response: Response | null) =>
  codes.read(
    new URL(response?.headers.get('x-middleware-rewrite') ?? `${BASE}/`).pathname.split('/')[2] ??
      '',
  );
const cookieOf = (response: Response | null, name: string) =>
  response?.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);

beforeEach(() => counted.mockClear());

describe('the variants of / while an experiment runs', () => {
  it('does nothing at all when none runs, or for another path', async () => {
    const request = new NextRequest(`${BASE}/`, { headers: { 'user-agent': CHROME } });
    expect(await experimentResponse(request, undefined, [], codes)).toBeNull();
    expect(
      await experimentResponse(new NextRequest(`${BASE}/gracias`), undefined, running, codes),
    ).toBeNull();
  });

  it("rewrites a first view to the visitor's variant, keeps it in a cookie, and counts it after the answer", async () => {
    const { response, waited } = await visit();
    const variants = await rewrittenTo(response);
    expect(variants).toEqual({ titulo: expect.stringMatching(/^(control|b)$/) });
    expect(response?.headers.get('cache-control')).toBe(PRIVATE_PAGE);
    const cookie = response?.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${VISITOR_COOKIE}=`));
    expect(cookie).toMatch(/; Path=\/; .*Max-Age=7776000/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=lax/i);
    const visitor = parseVisitor(decodeURIComponent(cookieOf(response, VISITOR_COOKIE) ?? ''));
    expect(visitor).toEqual({ id: expect.any(String), day: dayOf(Date.now()), variants });
    expect(waited).toHaveLength(1);
    expect(counted).toHaveBeenCalledWith('titulo', variants?.titulo, expect.any(Number));
  });

  it('keeps a returning visitor in their variant, counted once a day and with no new cookie that day', async () => {
    const first = await visit();
    const cookie = `${VISITOR_COOKIE}=${cookieOf(first.response, VISITOR_COOKIE)}`;
    counted.mockClear();
    const again = await visit({ headers: { cookie } });
    expect(await rewrittenTo(again.response)).toEqual(await rewrittenTo(first.response));
    expect(again.response?.headers.getSetCookie()).toEqual([]);
    expect(counted).not.toHaveBeenCalled();
    // The next day: counted again, in the same variant.
    const yesterday = parseVisitor(
      decodeURIComponent(cookieOf(first.response, VISITOR_COOKIE) ?? ''),
    )!;
    const old = `${VISITOR_COOKIE}=${yesterday.id}.${yesterday.day - 1}.titulo:${yesterday.variants.titulo}`;
    const nextDay = await visit({ headers: { cookie: old } });
    expect(await rewrittenTo(nextDay.response)).toEqual(yesterday.variants);
    expect(counted).toHaveBeenCalledTimes(1);
  });

  it('splits first visits as configured', async () => {
    const seen = { control: 0, b: 0 };
    for (let i = 0; i < 400; i++) {
      const { response } = await visit();
      seen[(await rewrittenTo(response))?.titulo as 'control' | 'b'] += 1;
    }
    expect(seen.control + seen.b).toBe(400);
    expect(Math.abs(seen.b - 200)).toBeLessThan(50);
  });

  it.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['Bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
    [
      "Facebook's link preview",
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    ],
    ["WhatsApp's link preview", 'WhatsApp/2.23.20.0'],
    ["Slack's link preview", 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
    ['Twitterbot', 'Twitterbot/1.0'],
  ])('gives %s the control, no cookie, and does not count it', async (_, agent) => {
    const { response } = await visit({ headers: { 'user-agent': agent } });
    expect(response?.headers.get('x-middleware-rewrite')).toBeNull();
    expect(response?.headers.get('x-middleware-next')).toBe('1');
    expect(response?.headers.getSetCookie()).toEqual([]);
    expect(response?.headers.get('cache-control')).toBe(PRIVATE_PAGE);
    expect(counted).not.toHaveBeenCalled();
  });

  it('serves the variant QA asks for, without counting it or touching the visitor cookie, and marks the visit', async () => {
    const { response } = await visit({
      url: `${BASE}/?variante=b`,
      headers: { cookie: `${VISITOR_COOKIE}=x` },
    });
    expect(await rewrittenTo(response)).toEqual({ titulo: 'b' });
    expect(cookieOf(response, VISITOR_COOKIE)).toBeUndefined();
    expect(cookieOf(response, QA_COOKIE)).toBe('1');
    expect(response?.headers.getSetCookie().find((line) => line.startsWith(QA_COOKIE))).toMatch(
      /Max-Age=3600/,
    );
    expect(counted).not.toHaveBeenCalled();
    expect(new URL(response?.headers.get('x-middleware-rewrite') ?? '').search).toBe('?variante=b');
    // The views that follow within the hour are not counted either, and show the control unless they ask.
    const later = await visit({ headers: { cookie: `${QA_COOKIE}=1` } });
    expect(await rewrittenTo(later.response)).toEqual({ titulo: 'control' });
    expect(later.response?.headers.getSetCookie()).toEqual([]);
    expect(counted).not.toHaveBeenCalled();
  });

  it.each([
    ['a HEAD', { method: 'HEAD' }],
    ["the router's RSC request", { headers: { rsc: '1' } }],
    ['a Next prefetch', { headers: { rsc: '1', 'next-router-prefetch': '1' } }],
    ["a browser's prefetch", { headers: { 'sec-purpose': 'prefetch' } }],
    ['an old-style prefetch', { headers: { purpose: 'prefetch' } }],
    ["the form's post", { method: 'POST', headers: { 'next-action': 'abc' } }],
  ])('serves %s its variant without counting it', async (_, init) => {
    const { response } = await visit(init);
    expect(await rewrittenTo(response)).toEqual({ titulo: expect.stringMatching(/^(control|b)$/) });
    expect(counted).not.toHaveBeenCalled();
    // Its cookie says it was never counted: the view that follows is.
    expect(parseVisitor(decodeURIComponent(cookieOf(response, VISITOR_COOKIE) ?? ''))?.day).toBe(0);
  });
});
