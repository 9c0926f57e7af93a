import fs from 'node:fs';
import path from 'node:path';

/**
 * The services' rooms (STYLE.md, practica's layering): entry points (routes, queue consumers,
 * timers, the CLI) call the domain only; data-access never imports the domain or an entry
 * point; the domain says what went wrong, never with an HTTP status.
 */
const SERVICES = path.join(__dirname, '..', '..', 'services');
const SERVICE_NAMES = fs.readdirSync(SERVICES).filter((name) => fs.existsSync(path.join(SERVICES, name, 'src')));

interface Import {
  /** The importing file, relative to services/. */
  file: string;
  specifier: string;
  typeOnly: boolean;
  /** For a relative import: the room it lands in (`domain`, `data-access`, `entry-points`, or `root`). */
  room?: string;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function roomOf(srcDir: string, file: string): string {
  const [top, rest] = path.relative(srcDir, file).split(path.sep);
  return rest === undefined ? 'root' : top!;
}

function importsIn(room: string): Import[] {
  return SERVICE_NAMES.flatMap((service) => {
    const src = path.join(SERVICES, service, 'src');
    return sources(src)
      .filter((file) => roomOf(src, file) === room)
      .flatMap((file) => {
        const text = fs.readFileSync(file, 'utf8');
        const found = [
          ...text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm),
          ...text.matchAll(/(?:require|import)\(\s*'([^']+)'\s*\)/g),
        ];
        return found.map((m): Import => {
          const specifier = m.length === 3 ? m[2]! : m[1]!;
          const typeOnly = m.length === 3 && m[1] !== undefined;
          const relative = specifier.startsWith('.');
          return {
            file: path.relative(SERVICES, file),
            specifier,
            typeOnly,
            room: relative ? roomOf(src, path.resolve(path.dirname(file), specifier)) : undefined,
          };
        });
      });
  });
}

/** The code of a file, its comments left out (they may well say which status an entry point picks). */
function withoutComments(file: string): string {
  return fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const show = (i: Import) => `${i.file} -> ${i.specifier}`;

describe("The services' layering", () => {
  it('When the import scan runs, then it sees every room of every service (the test is not vacuous)', () => {
    expect(SERVICE_NAMES.sort()).toEqual(['converter', 'dispatcher', 'gateway']);
    for (const room of ['entry-points', 'domain', 'data-access']) expect(importsIn(room).length).toBeGreaterThan(10);
    expect(importsIn('entry-points').filter((i) => i.room === 'domain').length).toBeGreaterThan(10);
  });

  it('When an entry point imports, then never data-access: it calls a domain use case', () => {
    const wrong = importsIn('entry-points').filter((i) => i.room === 'data-access');
    expect(wrong.map(show)).toEqual([]);
  });

  it('When an entry point imports the database package, then only its types (queries live in data-access)', () => {
    const wrong = importsIn('entry-points').filter((i) => i.specifier === '@markwright/db' && !i.typeOnly);
    expect(wrong.map(show)).toEqual([]);
  });

  it('When data-access imports, then never the domain or an entry point: shared types live in contracts or data-access', () => {
    const wrong = importsIn('data-access').filter((i) => i.room === 'domain' || i.room === 'entry-points');
    expect(wrong.map(show)).toEqual([]);
  });

  it('When the domain imports, then never an entry point or the HTTP framework', () => {
    const wrong = importsIn('domain').filter(
      (i) => i.room === 'entry-points' || ['express', 'node:http', 'http'].includes(i.specifier),
    );
    expect(wrong.map(show)).toEqual([]);
  });

  it('When the domain refuses, then with a kind, never an HTTP status (the entry points map kinds to statuses)', () => {
    const wrong = SERVICE_NAMES.flatMap((service) => {
      const domain = path.join(SERVICES, service, 'src', 'domain');
      if (!fs.existsSync(domain)) return [];
      return sources(domain).filter((file) =>
        /new AppError\(\s*\d{3}|\bstatus(?:Code)?\s*[:=(]\s*[1-5]\d\d\b/.test(withoutComments(file)),
      );
    });
    expect(wrong.map((file) => path.relative(SERVICES, file))).toEqual([]);
  });

  it('When a statement takes five or more values, then it is a named, typed statement (namedStatement), never $1..$n', () => {
    const roots = [SERVICES, path.join(SERVICES, '..', 'packages')];
    const files = roots.flatMap((root) =>
      fs
        .readdirSync(root)
        .map((name) => path.join(root, name, 'src'))
        .filter((src) => fs.existsSync(src))
        .flatMap((src) => sources(src))
        .filter((file) => !file.includes(`${path.sep}generated${path.sep}`)),
    );
    expect(files.length).toBeGreaterThan(50);
    const wrong = files.filter((file) => /\$(?:[5-9]|[1-9]\d)(?!\d)/.test(withoutComments(file)));
    expect(wrong.map((file) => path.relative(path.join(SERVICES, '..'), file))).toEqual([]);
  });
});
