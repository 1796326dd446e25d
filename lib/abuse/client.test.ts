/**
 * @jest-environment node
 */
import { addressKey, clientKey, UNKNOWN_CLIENT_KEY } from './client';
import { consume, createLimiter } from './limiter';

const config = { max: 5, windowSeconds: 60 };

describe('whose enquiry it is (the limiter key)', () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  const selfHosted = (trustedProxies: number) => ({ trustedProxies, onVercel: false });
  const onVercel = { trustedProxies: 0, onVercel: true };

  it('behind one proxy, a visitor who writes their own X-Forwarded-For and X-Real-IP is still one visitor, allowed 5 of 8', async () => {
    // nginx's $proxy_add_x_forwarded_for appends the address it saw to whatever the client wrote.
    const keys = Array.from({ length: 8 }, (_, i) =>
      clientKey(
        headers({
          'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7`,
          'x-real-ip': `192.0.2.${i + 1}`,
        }),
        selfHosted(1),
      ),
    );
    expect(new Set(keys)).toEqual(new Set(['203.0.113.7']));
    const limiter = createLimiter('contacto', config);
    const verdicts = [];
    for (const key of keys) verdicts.push((await consume(limiter, key)).allowed);
    expect(verdicts.filter(Boolean)).toHaveLength(5);
  });

  it('counts 8 addresses of one IPv6 /64 as one visitor, allowed 5', async () => {
    const addresses = [
      '2001:db8:1:2::1',
      '2001:DB8:1:2::ffff',
      '2001:db8:1:2:aaaa:bbbb:cccc:dddd',
      '2001:0db8:0001:0002:0:0:0:9',
    ];
    addresses.push(...['1', '2', '3', '4'].map((last) => `2001:db8:1:2:${last}::${last}`));
    const keys = addresses.map((address) =>
      clientKey(headers({ 'x-forwarded-for': address }), selfHosted(0)),
    );
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    const limiter = createLimiter('contacto', config);
    const verdicts = [];
    for (const key of keys) verdicts.push((await consume(limiter, key)).allowed);
    expect(verdicts.filter(Boolean)).toHaveLength(5);
    // The next /64 is someone else.
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('puts a 15 kB header, or anything that is not an address, in one shared key of its own', () => {
    const huge = 'a'.repeat(15_000);
    expect(clientKey(headers({ 'x-forwarded-for': huge }), selfHosted(0))).toBe(UNKNOWN_CLIENT_KEY);
    expect(clientKey(headers({ 'x-forwarded-for': `203.0.113.7, ${huge}` }), selfHosted(1))).toBe(
      UNKNOWN_CLIENT_KEY,
    );
    expect(addressKey(`198.51.100.7${' '.repeat(60)}`)).toBe(UNKNOWN_CLIENT_KEY);
    for (const garbage of [
      'unknown',
      '999.1.1.1',
      '01.2.3.4',
      '198.51.100',
      '2001:db8::1::2',
      '198.51.100.7%eth0',
      'fe80::1%eth0/x',
      '[198.51.100.7',
      'a, b',
    ]) {
      expect(addressKey(garbage)).toBe(UNKNOWN_CLIENT_KEY);
    }
    expect(clientKey(headers({}), selfHosted(0))).toBe(UNKNOWN_CLIENT_KEY);
    expect(clientKey(headers({}), onVercel)).toBe(UNKNOWN_CLIENT_KEY);
    // The shared key never looks like a real visitor's.
    expect(addressKey('203.0.113.7')).not.toBe(UNKNOWN_CLIENT_KEY);
  });

  it("on Vercel reads Vercel's own header, not an X-Forwarded-For a client made up", () => {
    expect(
      clientKey(
        headers({
          'x-vercel-forwarded-for': '203.0.113.7',
          'x-forwarded-for': '198.51.100.66',
          'x-real-ip': '198.51.100.66',
        }),
        onVercel,
      ),
    ).toBe('203.0.113.7');
    expect(
      clientKey(
        headers({ 'x-real-ip': '203.0.113.8', 'x-forwarded-for': '198.51.100.66' }),
        onVercel,
      ),
    ).toBe('203.0.113.8');
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }), onVercel)).toBe(
      '203.0.113.9',
    );
  });

  it('off Vercel never reads X-Real-IP or x-vercel-forwarded-for, which any client can send', () => {
    const forged = { 'x-real-ip': '198.51.100.66', 'x-vercel-forwarded-for': '198.51.100.67' };
    expect(clientKey(headers({ ...forged, 'x-forwarded-for': '203.0.113.7' }), selfHosted(0))).toBe(
      '203.0.113.7',
    );
    expect(
      clientKey(
        headers({ ...forged, 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }),
        selfHosted(1),
      ),
    ).toBe('203.0.113.7');
    expect(clientKey(headers(forged), selfHosted(1))).toBe(UNKNOWN_CLIENT_KEY);
  });

  it('behind two proxies takes the second entry from the right; with fewer entries, the leftmost', () => {
    // client-written, the visitor as the CDN saw them, the CDN as nginx saw it
    expect(
      clientKey(
        headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 10.0.0.2' }),
        selfHosted(2),
      ),
    ).toBe('203.0.113.7');
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.7,10.0.0.2' }), selfHosted(2))).toBe(
      '203.0.113.7',
    );
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.7' }), selfHosted(2))).toBe(
      '203.0.113.7',
    );
    expect(
      clientKey(
        headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 10.0.0.2' }),
        selfHosted(1),
      ),
    ).toBe('10.0.0.2');
  });

  it('with no proxy of yours takes the last entry, the one Next.js writes when the client wrote none', () => {
    expect(
      clientKey(headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }), selfHosted(0)),
    ).toBe('203.0.113.7');
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.7' }), selfHosted(0))).toBe(
      '203.0.113.7',
    );
  });

  it('counts an IPv4 client on a dual-stack socket (::ffff:a.b.c.d) as that IPv4 address', () => {
    for (const mapped of [
      '::ffff:198.51.100.7',
      '::FFFF:198.51.100.7',
      '::ffff:c633:6407',
      '0:0:0:0:0:ffff:198.51.100.7',
      '[::ffff:198.51.100.7]:443',
    ]) {
      expect(addressKey(mapped)).toBe('198.51.100.7');
    }
    expect(
      clientKey(headers({ 'x-forwarded-for': '198.51.100.1, ::ffff:198.51.100.7' }), selfHosted(1)),
    ).toBe(clientKey(headers({ 'x-forwarded-for': '198.51.100.1, 198.51.100.7' }), selfHosted(1)));
  });

  it('reads an address with a port, brackets or a zone id as the address itself', () => {
    expect(addressKey('198.51.100.7:51234')).toBe('198.51.100.7');
    expect(addressKey('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2::/64');
    expect(addressKey('[2001:db8:1:2::1]')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::')).toBe('0:0:0:0::/64');
  });
});
