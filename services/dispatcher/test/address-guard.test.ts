import { isPublicAddress } from '@markwright/net';
import { createSender } from '../src/data-access/sender';
import { buildPayload, sign } from '../src/domain/payload';

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::',
  ])('When the address is %s, then it is not a public address', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // Issue 21: every form of an IPv4 address inside IPv6. Compatible, translated, NAT64, 6to4
  // and Teredo are refused whatever the IPv4 inside; mapped is judged by the IPv4 it maps to.
  it.each([
    '::127.0.0.1',
    '::7f00:1',
    '::169.254.169.254',
    '::10.0.0.1',
    '::8.8.8.8',
    '::ffff:169.254.169.254',
    '::ffff:0:127.0.0.1',
    '::ffff:0:8.8.8.8',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
  ])('When the address is %s (IPv4 inside IPv6), then it is not a public address', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:80b::200e'])(
    'When the address is %s, then it is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  const send = createSender({ timeoutMs: 1000, allowPrivateNetworks: false, userAgent: 'test' });

  it('When the URL is a private IP literal, then the delivery is refused before connecting', async () => {
    const result = await send('https://169.254.169.254/latest/meta-data', '{}', {});
    expect(result).toMatchObject({
      statusCode: null,
      succeeded: false,
      error: 'refused to deliver to non-public address 169.254.169.254',
    });
  });

  it('When the URL is an IPv4-compatible IPv6 literal of loopback, then the delivery is refused before connecting', async () => {
    const result = await send('https://[::127.0.0.1]:9/hook', '{}', {});
    expect(result).toMatchObject({
      statusCode: null,
      succeeded: false,
      error: 'refused to deliver to non-public address ::7f00:1',
    });
  });

  it('When the host name resolves to loopback, then the resolved address is refused at connect time', async () => {
    const result = await send('https://localhost:9/hook', '{}', {});
    expect(result.succeeded).toBe(false);
    expect(result.error).toMatch(/refused to deliver to non-public address (127\.0\.0\.1|::1)/);
  });

  it('When the URL is http, then it is refused', async () => {
    expect((await send('http://example.com/', '{}', {})).error).toBe('webhook URL must use https');
  });
});

describe('payload', () => {
  it('When re-serialised by a receiver, then the bytes and so the signature are unchanged', () => {
    const body = buildPayload({
      id: 'x',
      status: 'completed',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      completedAt: new Date('2026-01-01T00:00:01Z'),
      markdown: 'é "q"\n',
      metadata: { title: 't', author: '', page_count: 1 },
      includeMetadata: true,
      error: null,
    });
    expect(body).toBe(
      '{"id":"x","status":"completed","created_at":"2026-01-01T00:00:00.000+00:00","markdown":"é \\"q\\"\\n","completed_at":"2026-01-01T00:00:01.000+00:00","metadata":{"title":"t","author":"","page_count":1}}',
    );
    expect(sign(JSON.stringify(JSON.parse(body)), 's')).toBe(sign(body, 's'));
  });
});
