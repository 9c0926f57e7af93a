import { ConversionError } from '../src/types';
import { conversionFailure, userFacingError } from '../src/user-facing-errors';
import { convertDocument } from '../src/convert';

/** userFacingError is applied once: where a reader's error leaves convertDocument, or to anything else at the worker. */
describe('Errors shown to users, made once', () => {
  it('When a conversion already ended with a ConversionError, then the worker passes it on untouched (not cleaned a second time)', () => {
    // A message userFacingError would change: once made, it is what the user reads, as it is.
    const made = new ConversionError('corrupt_file', 'The file /tmp/a/b.docx: x is not a function');
    expect(userFacingError(made, 'docx').message).not.toBe(made.message);
    expect(conversionFailure(made, 'docx')).toBe(made);
  });

  it('When anything else escapes a conversion, then it becomes the plain sentence, once', () => {
    const shown = conversionFailure(new TypeError("Cannot read properties of undefined (reading 'x')"), 'docx');
    expect({ code: shown.code, message: shown.message }).toEqual({
      code: 'corrupt_file',
      message: 'The .docx file could not be read: it is damaged or uses features we cannot read.',
    });
  });

  it("When a reader fails inside convertDocument, then what it throws is already the user's sentence, and the worker's pass keeps it", async () => {
    const err = await convertDocument(Buffer.from('not a docx'), 'docx', { enhanced: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversionError);
    expect(conversionFailure(err, 'docx')).toBe(err);
  });
});
