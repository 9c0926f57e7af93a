/**
 * The same kind of page at 100 KB, 1 MB and 4 MB, and elements nested as deep as those sizes allow:
 * HTML conversion time must grow linearly with size, however the elements nest.
 */
const SIZES_KB = [100, 1024, 4096];

function page(kb: number): Buffer {
  const parts = ['<html><head><title>Scaling</title></head><body><main>'];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const part =
      `<h2>Section ${i}</h2><p>Paragraph <b>${i}</b> with <em>stress</em> and <a href="https://x.test/${i}">a link</a>.</p>` +
      `<ul><li>one</li><li>two <code>x()</code></li></ul>` +
      `<table><tr><th>a</th><th>b</th></tr><tr><td rowspan="2">${i}</td><td>x</td></tr><tr><td>y</td></tr></table>\n`;
    parts.push(part);
    size += part.length;
  }
  parts.push('</main></body></html>');
  return Buffer.from(parts.join(''));
}

/** One element inside the next, as deep as the size allows (hostile or generated markup). */
function nested(kb: number): Buffer {
  const depth = Math.floor((kb * 1024) / '<div><span></span></div>'.length);
  return Buffer.from(`<html><body>${'<div><span>'.repeat(depth)}deep${'</span></div>'.repeat(depth)}</body></html>`);
}

const sizeLabel = (kb: number): string => (kb >= 1024 ? `${kb / 1024} MB` : `${kb} KB`);

export const benchCases = [
  ...SIZES_KB.map((kb) => ({ label: `html scaling ${sizeLabel(kb)}`, ext: 'html', make: async () => page(kb) })),
  ...SIZES_KB.map((kb) => ({ label: `html nesting ${sizeLabel(kb)}`, ext: 'html', make: async () => nested(kb) })),
];
