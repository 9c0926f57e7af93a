import { storableJson, storableText } from '../src/storable-text';

describe('storable text', () => {
  it('When text holds NUL characters, then they are removed and everything else is kept', () => {
    expect(storableText('a\u0000b\u0000\u0000c\n')).toBe('abc\n');
  });

  it('When text holds lone surrogates, then each becomes U+FFFD and surrogate pairs are kept', () => {
    expect(storableText('x\ud800y\udc00z \ud83d\ude00')).toBe('x\ufffdy\ufffdz \ud83d\ude00');
  });

  it('When a JSON value holds NUL in nested strings, then every string is made storable and numbers stay', () => {
    expect(
      storableJson({ title: 'T\u0000', list: ['a\u0000', 1], nested: { author: '\ud800' }, page_count: 2 }),
    ).toEqual({ title: 'T', list: ['a', 1], nested: { author: '\ufffd' }, page_count: 2 });
  });
});
