/** Large text-family documents for `pnpm bench`. */
export const benchCases = [
  {
    label: 'csv 100k rows',
    ext: 'csv',
    units: { count: 100, name: '1k rows' },
    make: async () => {
      const rows = ['id,name,amount,date'];
      for (let i = 0; i < 100_000; i++)
        rows.push(`${i},"Name ${i}, Jr.",${(i * 1.5).toFixed(2)},2026-01-${(i % 28) + 1}`);
      return Buffer.from(rows.join('\n'));
    },
  },
  {
    label: 'html 5 MB',
    ext: 'html',
    make: async () => {
      const parts = ['<html><head><title>Big</title></head><body>'];
      for (let i = 0; i < 5000; i++) {
        parts.push(`<h2>Section ${i}</h2><p>Paragraph <b>${i}</b> with <a href="https://x.test/${i}">a link</a>.</p>`);
        parts.push(
          `<ul><li>one</li><li>two</li></ul><table><tr><th>a</th><th>b</th></tr><tr><td>${i}</td><td>x</td></tr></table>`,
        );
      }
      parts.push('</body></html>');
      return Buffer.from(parts.join('\n'));
    },
  },
];
