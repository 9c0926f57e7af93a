import { DOMParser } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { SafeZip } from '../../src/archive/safe-zip';
import { ooxmlProperties, parseXml } from '../../src/readers/shared/office-properties';
import { recordAttr, recordChild, xmlSubtrees } from '../../src/readers/shared/xml-subtrees';

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

  it('When a lookup part is streamed, then only the wanted subtrees come back, by local name, in document order', () => {
    const xml =
      '<x:styles xmlns:x="urn:w"><x:latentStyles><x:lsdException x:name="Normal"/></x:latentStyles>' +
      '<x:style x:styleId="A"><x:name x:val="First"/><x:pPr><x:outlineLvl x:val="0"/></x:pPr></x:style>' +
      '<x:style x:styleId="B"><x:name x:val="Second"/></x:style></x:styles>';
    const styles = xmlSubtrees(xml, 'test', new Set(['style']));
    expect(styles.map((s) => [recordAttr(s, 'styleId'), recordAttr(recordChild(s, 'name'), 'val')])).toEqual([
      ['A', 'First'],
      ['B', 'Second'],
    ]);
    expect(recordAttr(recordChild(recordChild(styles[0], 'pPr'), 'outlineLvl'), 'val')).toBe('0');
  });

  it('When an attribute value has references, raw tabs or line breaks, then it reads as an XML parser reads it', () => {
    const xml = '<w:style xmlns:w="urn:w" w:a="Tom &amp; Jerry&#10;&#x41;" w:b="one\ttwo\r\nthree"/>';
    const [style] = xmlSubtrees(xml, 'test', new Set(['style']));
    const dom = parseXml(xml, 'test').documentElement!;
    expect([recordAttr(style, 'a'), recordAttr(style, 'b')]).toEqual([
      dom.getAttribute('w:a'),
      dom.getAttribute('w:b'),
    ]);
    expect(recordAttr(style, 'a')).toBe('Tom & Jerry\nA');
  });

  it('When a lookup part declares entities, then it is refused as a corrupt file', () => {
    const xml = '<!DOCTYPE s [<!ENTITY x "boom">]><s><style name="&x;"/></s>';
    expect(() => xmlSubtrees(xml, 'DOCX file', new Set(['style']))).toThrow(
      expect.objectContaining({ code: 'corrupt_file' }) as Error,
    );
  });

  it('When a package has core and app properties, then each part is parsed once and every field is read', () => {
    const zip = new SafeZip(
      Buffer.from(
        zipSync({
          'docProps/core.xml': strToU8(
            '<cp:coreProperties xmlns:cp="urn:cp" xmlns:dc="urn:dc"><dc:title> Plan </dc:title><dc:creator>Ann</dc:creator></cp:coreProperties>',
          ),
          'docProps/app.xml': strToU8('<Properties xmlns="urn:app"><Pages>12</Pages><Slides>x</Slides></Properties>'),
        }),
      ),
      'test',
    );
    const parse = jest.spyOn(DOMParser.prototype, 'parseFromString');
    try {
      expect(ooxmlProperties(zip)).toEqual({ title: 'Plan', author: 'Ann', pages: 12, slides: undefined });
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });
});
