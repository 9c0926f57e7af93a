import PptxGenJS from 'pptxgenjs';
import { convertDocument } from '../../src';

const std = { enhanced: false };

describe('PPTX', () => {
  it('When a deck has titled slides, bullets, a table and notes, then each slide is a section in order', async () => {
    const pptx = new PptxGenJS();
    pptx.title = 'Deck';
    pptx.author = 'Nora';
    const s1 = pptx.addSlide();
    s1.addText('Plan für 2027', { placeholder: 'title', x: 0.5, y: 0.3, w: 9, h: 1 });
    s1.addText('Grow revenue', { x: 0.5, y: 1.5, w: 9, h: 0.5, bullet: true });
    s1.addText('Hire', { x: 0.5, y: 2.1, w: 9, h: 0.5, bullet: true });
    s1.addNotes('Speak slowly.');
    const s2 = pptx.addSlide();
    s2.addTable(
      [
        [{ text: 'Q' }, { text: 'Revenue' }],
        [{ text: 'Q1' }, { text: '10' }],
      ],
      { x: 0.5, y: 1, w: 6 },
    );
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown, metadata } = await convertDocument(input, 'pptx', std);
    expect(markdown).toContain('- Grow revenue\n');
    expect(markdown).toContain('- Hire');
    expect(markdown).toContain('### Notes\n\nSpeak slowly.');
    expect(markdown).toMatch(/# Slide 2\n\n\| Q \| Revenue \|\n\| --- \| --- \|\n\| Q1 \| 10 \|/);
    expect(markdown.indexOf('Grow revenue')).toBeLessThan(markdown.indexOf('Hire'));
    expect(metadata).toEqual({ title: 'Deck', author: 'Nora', page_count: 2 });
  });

  it('When the file is not a presentation package, then it fails as corrupt', async () => {
    await expect(convertDocument(Buffer.from('nope'), 'pptx', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });
});
