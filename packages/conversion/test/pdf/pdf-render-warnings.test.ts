import { convertDocument } from '../../src';
import { handWrittenPdf } from './make-pdf';

const std = { enhanced: false };

describe('PDF pages that poppler warns about while rendering', () => {
  it('When a page without text draws a shading whose function poppler rejects at every pixel, then the page is read from its image instead of failing the file', async () => {
    // A function-based shading (type 1) over the whole page whose PostScript calculator function adds
    // a boolean to a number: pdftoppm prints "Type mismatch in PostScript function" for each pixel.
    const fn = '{ 1 true add }';
    const pdf = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Shading << /Sh1 5 0 R >> >> >>',
      '<< /Length 7 >>\nstream\n/Sh1 sh\nendstream',
      '<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 612 0 792] /Function 6 0 R >>',
      `<< /FunctionType 4 /Domain [0 612 0 792] /Range [0 1] /Length ${fn.length} >>\nstream\n${fn}\nendstream`,
    ]);
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe('');
  });
});
