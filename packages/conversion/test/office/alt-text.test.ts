import sharp from 'sharp';
import { convertDocument } from '../../src';
import { imageAltText } from '../../src/readers/shared/alt-text';

const std = { enhanced: false };
const blankPng = () =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

describe('image alt text', () => {
  it('When Office wrote the description itself, then its disclaimer is cut and the description kept', () => {
    expect(imageAltText('A duck on a lake\n\nDescription automatically generated')).toBe('A duck on a lake');
    expect(imageAltText('A chart of sales\n\nDescription automatically generated with medium confidence')).toBe(
      'A chart of sales',
    );
    expect(imageAltText('A duck on a lake\n\nAI-generated content may be incorrect.')).toBe('A duck on a lake');
    expect(imageAltText('Ein Diagramm\n\nAutomatisch generierte Beschreibung')).toBe('Ein Diagramm');
  });

  it('When the only candidate is a numbered default object name, then the alt text is "image"', () => {
    expect(imageAltText('', undefined, 'Picture 4')).toBe('image');
    expect(imageAltText(null, 'Grafik 2')).toBe('image');
    expect(imageAltText('Image1')).toBe('image');
    expect(imageAltText('Content Placeholder 3')).toBe('image');
    expect(imageAltText('IMG_2034.JPG', 'image1.png')).toBe('image');
  });

  it('When a later candidate is a real name, then it is used after the empty and default ones', () => {
    expect(imageAltText('', 'Picture 4', 'Company logo')).toBe('Company logo');
    expect(imageAltText('Description automatically generated', 'Floor plan')).toBe('Floor plan');
  });

  it('When a DOCX picture has Office-generated alt text, then the Markdown image carries the description only', async () => {
    const { Document, ImageRun, Packer, Paragraph } = await import('docx');
    const input = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({
                children: [
                  new ImageRun({
                    type: 'png',
                    data: await blankPng(),
                    transformation: { width: 16, height: 16 },
                    altText: {
                      name: 'Picture 3',
                      title: '',
                      description: 'A duck on a lake\n\nDescription automatically generated',
                    },
                  }),
                ],
              }),
            ],
          },
        ],
      }),
    );
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown).toContain('![A duck on a lake](');
    expect(markdown).not.toContain('automatically');
  });

  it('When a PPTX picture has no description, then neither its file name nor its default shape name is used as alt text', async () => {
    const { default: PptxGenJS } = await import('pptxgenjs');
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addImage({ data: `data:image/png;base64,${(await blankPng()).toString('base64')}`, x: 1, y: 1, w: 1, h: 1 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toContain('![image](');
    expect(markdown).not.toMatch(/!\[Image \d+\]/);
  });
});
