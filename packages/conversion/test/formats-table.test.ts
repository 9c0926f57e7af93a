import { FORMAT_MIME_TYPES, SUPPORTED_EXTENSIONS as CONTRACT_EXTENSIONS } from '../../contracts/src/formats';
import { FORMATS, SUPPORTED_EXTENSIONS, formatOf, readerFor } from '../src';

describe('The format table', () => {
  it("When the contracts package lists the extensions, then it lists the table's, in the table's order", () => {
    expect(CONTRACT_EXTENSIONS).toEqual([...SUPPORTED_EXTENSIONS]);
  });

  it("When the contracts package gives an extension's MIME types, then they are its table line's", () => {
    const fromTable = Object.fromEntries(SUPPORTED_EXTENSIONS.map((ext) => [ext, [...formatOf(ext)!.mimeTypes]]));
    expect(FORMAT_MIME_TYPES).toEqual(fromTable);
  });

  it('When every extension is looked up, then exactly one line has it and its reader loads', () => {
    for (const ext of SUPPORTED_EXTENSIONS) {
      expect(FORMATS.filter((line) => (line.extensions as readonly string[]).includes(ext))).toHaveLength(1);
      expect(typeof readerFor(ext.toUpperCase()).read).toBe('function');
    }
  });

  it('When an extension is in no line, then the reader lookup refuses it as unsupported', () => {
    expect(() => readerFor('exe')).toThrow('Files of type .exe are not supported.');
  });
});
