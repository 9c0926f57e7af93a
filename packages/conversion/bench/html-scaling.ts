/** The same kind of page at 100 KB, 1 MB and 4 MB: HTML conversion time must grow linearly with size. */
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

export const benchCases = SIZES_KB.map((kb) => ({
  label: `html scaling ${kb >= 1024 ? `${kb / 1024} MB` : `${kb} KB`}`,
  ext: 'html',
  make: async () => page(kb),
}));
