import { firstAtxHeading, frontMatterTitle } from '../src/readers/text/first-heading';
import { convertDocument } from '../src';
import { seeded as random } from './seeded-random';

/** The patterns these functions replace: the reference for what they must find. */
const HEADING = /^#\s+(.+?)\s*#*\s*$/m;
const TITLE = /^title:\s*["']?(.+?)["']?\s*$/m;

const PIECES = ['#', '# ', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', 'a', 'b', '"', "'", 'title:', '##', ' #', '\n#'];

function texts(seed: number, count: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 14);
    return Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  });
}

describe('plain-text title', () => {
  it('When 20,000 generated texts are searched, then the heading found is the one the regular expression finds', () => {
    for (const text of texts(1, 20_000)) expect([text, firstAtxHeading(text)]).toEqual([text, HEADING.exec(text)?.[1]]);
  });

  it('When 20,000 generated front matters are searched, then the title found is the one the regular expression finds', () => {
    for (const text of texts(2, 20_000)) expect([text, frontMatterTitle(text)]).toEqual([text, TITLE.exec(text)?.[1]]);
  });

  it('When a heading line holds a million spaces, then the file converts with its title (the pattern took 3 s for 2,000)', async () => {
    const text = `# a${' '.repeat(1_000_000)}b\n\nbody`;
    const { metadata } = await convertDocument(Buffer.from(text), 'txt', { enhanced: false });
    expect(metadata.title).toBe(`a${' '.repeat(1_000_000)}b`);
  });

  it('When a front-matter title line holds a million spaces, then the file converts with its title', async () => {
    const text = `---\ntitle: a${' '.repeat(1_000_000)}b\n---\nbody`;
    const { metadata } = await convertDocument(Buffer.from(text), 'txt', { enhanced: false });
    expect(metadata.title).toBe(`a${' '.repeat(1_000_000)}b`);
  });
});
