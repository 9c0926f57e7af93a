import fs from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '..', 'src');
const READERS = path.join(SRC, 'readers');

/** Every .ts file under `dir`, as paths relative to src/. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [path.relative(SRC, full)] : [];
  });
}

/** The src/-relative targets of a file's relative imports and requires (without extension). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/(?:from|require\(|import\()\s*'(\.{1,2}\/[^']*)'/g)].map((m) =>
    path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), m[1]!)),
  );
}

/** The room a src/-relative path is in: `readers/pdf`, `readers/shared`, `writers`, `document`... */
function room(file: string): string {
  const [top, second] = file.split(path.sep);
  return top === 'readers' && second && second !== 'reader' && second !== 'reader.ts' ? `readers/${second}` : top!;
}

describe("The conversion library's rooms (pandoc's shape)", () => {
  const readerFiles = sources(READERS);

  it('When a reader imports, then never a writer, a filter, the format table or convert.ts', () => {
    const wrong = readerFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => ['writers', 'filters', 'formats', 'convert'].includes(room(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('When a reader imports another reader family, then it does not: what two share is in readers/shared', () => {
    const wrong = readerFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => room(target).startsWith('readers/') && room(target) !== 'readers/shared')
        .filter((target) => room(target) !== room(file) || room(file) === 'readers/shared')
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('When the writers and the model are imported, then the model imports no writer and the writer no reader', () => {
    const wrong = [...sources(path.join(SRC, 'document')), ...sources(path.join(SRC, 'writers'))].flatMap((file) =>
      importsOf(file)
        .filter(
          (target) => room(target).startsWith('readers') || (room(file) === 'document' && room(target) === 'writers'),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });
});
