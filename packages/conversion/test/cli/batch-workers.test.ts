import { batchWorkers } from '../../src/cli/batch-workers';

const MB = 1024 * 1024;

describe('how many workers a CLI batch converts on', () => {
  it('When a batch holds only PDFs, then it converts on one worker whatever its size (pdftohtml reads ahead on the other cores)', () => {
    expect(batchWorkers(['a.pdf', 'b.PDF'], [40 * MB, 40 * MB], false, 4)).toBe(1);
    expect(batchWorkers(['a.pdf'], [3 * MB], false, 4)).toBe(1);
  });

  it('When a batch of PDFs asks for a page range (nothing is read ahead), then a large one gets a worker per core, up to one per file', () => {
    expect(batchWorkers(['a.pdf', 'b.pdf', 'c.pdf'], [MB, MB, MB], true, 2)).toBe(2);
    expect(batchWorkers(['a.pdf', 'b.pdf'], [1000, 1000], true, 2)).toBe(1);
  });

  it('When another batch holds under 1 MB, then it converts on one worker; from 1 MB on a worker per core', () => {
    expect(batchWorkers(['a.docx', 'b.html'], [300_000, 300_000], false, 2)).toBe(1);
    expect(batchWorkers(['a.docx', 'b.pdf', 'c.html'], [MB, 10, 10], false, 2)).toBe(2);
  });

  it('When a batch holds an image or a recording, then it counts as enough for more workers on its own', () => {
    expect(batchWorkers(['scan.png', 'note.txt'], [1000, 10], false, 2)).toBe(2);
    expect(batchWorkers(['talk.mp3', 'scan.tiff', 'x.png'], [10, 10, 10], false, 8)).toBe(3);
  });
});
