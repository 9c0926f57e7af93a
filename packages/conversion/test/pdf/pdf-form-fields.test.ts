import { PDFDocument, StandardFonts } from 'pdf-lib';
import { closeConversionWorkers, convertIsolated } from '../../src';

// pdf.js, which reads the fields, loads in a conversion worker (an ES module jest's own loader does not take).
afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

describe('PDF form fields', () => {
  it('When filled text fields stand side by side on one row without labels, then every value is read', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const form = doc.getForm();
    const values = ['Heinz Mustermann', 'Hauptstrasse 12', 'Berlin'];
    values.forEach((value, i) => {
      const field = form.createTextField(`field${i}`);
      field.setText(value);
      field.addToPage(page, { x: 40 + i * 180, y: 760, width: 160, height: 22, font });
    });
    const { markdown } = await convertIsolated(Buffer.from(await doc.save()), 'pdf', std, limits);
    expect(markdown).toBe('Heinz Mustermann Hauptstrasse 12 Berlin\n');
  });

  it('When a list box draws its options, then the chosen option is read, beside its label', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Planet:', { x: 40, y: 720, size: 11, font });
    const list = doc.getForm().createOptionList('planet');
    list.addOptions(['Earth', 'Mars', 'Venus']);
    list.select('Mars');
    list.addToPage(page, { x: 120, y: 690, width: 120, height: 60, font });
    const { markdown } = await convertIsolated(Buffer.from(await doc.save()), 'pdf', std, limits);
    expect(markdown).toBe('Planet: Mars\n');
  });
});
