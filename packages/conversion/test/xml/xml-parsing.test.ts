import { parseXml } from '../../src/office-properties';

/** How many regular expressions `fn` constructs (literals are not counted, `new RegExp` is). */
function regExpsBuilt(fn: () => void): number {
  const original = globalThis.RegExp;
  let built = 0;
  globalThis.RegExp = new Proxy(original, {
    construct(target, args: [string | RegExp, string?]) {
      built++;
      return new target(...args);
    },
  });
  try {
    fn();
  } finally {
    globalThis.RegExp = original;
  }
  return built;
}

const paragraphs = (n: number): string =>
  `<w:document xmlns:w="urn:w"><w:body>${'<w:p><w:r><w:t>text</w:t></w:r></w:p>'.repeat(n)}</w:body></w:document>`;

describe('XML parts', () => {
  it('When a part has thousands of elements, then parsing builds no regular expression per element (the patched xmldom)', () => {
    expect(regExpsBuilt(() => parseXml(paragraphs(2000), 'test'))).toBe(
      regExpsBuilt(() => parseXml(paragraphs(1), 'test')),
    );
  });
});
