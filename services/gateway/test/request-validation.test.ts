import { AppError } from '../src/domain/app-error';
import { httpStatusOf } from '../src/entry-points/http/error-status';
import { validateConvertRequest, type UploadedFile } from '../src/domain/convert-request';
import { validateListRequest } from '../src/domain/list-request';

/** The zod validators alone: messages the HTTP tests don't reach (repeated fields, several rules of one field). */
function errorsOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return { status: httpStatusOf(err), body: err.body };
    throw err;
  }
  throw new Error('expected a validation error');
}

const file = (name: string, size = 5): UploadedFile => ({ originalname: name, size, buffer: Buffer.alloc(0) });

describe('POST /convert form validation', () => {
  it('When a text field is sent twice (an array), then it answers that it must be a string', () => {
    expect(
      errorsOf(() =>
        validateConvertRequest('free', file('a.txt'), {
          webhook_url: ['https://a.example', 'https://b.example'],
          webhook_secret: ['x', 'y'],
          include_metadata: ['true', 'true'],
        }),
      ),
    ).toEqual({
      status: 422,
      body: {
        message: 'The webhook url field must be a string.',
        errors: {
          webhook_url: ['The webhook url field must be a string.'],
          webhook_secret: ['The webhook secret field must be a string.'],
          include_metadata: ['The include metadata field must be a string.'],
        },
      },
    });
  });

  it('When the file is too large and of an unsupported type, then both messages are listed, size first', () => {
    expect(errorsOf(() => validateConvertRequest('free', file('a.exe', 5 * 1024 * 1024 + 1), {}))).toEqual({
      status: 422,
      body: {
        message: 'The file field must not be greater than 5120 kilobytes.',
        errors: {
          file: [
            'The file field must not be greater than 5120 kilobytes.',
            'The file field must be a file of type: pdf, docx, doc, xlsx, xls, pptx, ppt, html, htm, txt, rtf, csv, xml, json, md, markdown, epub, odt, ods, odp, jpg, jpeg, png, wav, mp3, m4a.',
          ],
        },
      },
    });
  });

  it('When webhook_url is not a URL and too long, then both messages are listed, validity first', () => {
    const body = errorsOf(() => validateConvertRequest('free', file('a.txt'), { webhook_url: 'x'.repeat(2049) }));
    expect(body).toEqual({
      status: 422,
      body: {
        message: 'The webhook url field must be a valid URL.',
        errors: {
          webhook_url: [
            'The webhook url field must be a valid URL.',
            'The webhook url field must not be greater than 2048 characters.',
          ],
        },
      },
    });
  });

  it('When flags are boolean words with spaces and capitals, then they are read as booleans', () => {
    const request = validateConvertRequest('free', file('Report.PDF'), {
      use_enhanced_ai: ' Yes ',
      optimize_tokens: 'OFF',
      include_metadata: '1',
      webhook_url: 'HTTPS://example.com/hook',
      webhook_secret: 's'.repeat(32),
    });
    expect(request).toMatchObject({
      extension: 'pdf',
      useEnhancedAi: true,
      optimizeTokens: false,
      includeMetadata: true,
      webhookUrl: 'HTTPS://example.com/hook',
      webhookSecret: 's'.repeat(32),
    });
  });

  it('When no optional field is sent, then the request is synchronous with every flag false', () => {
    expect(validateConvertRequest('business', file('a.txt'), {})).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
      useEnhancedAi: false,
      optimizeTokens: false,
      includeMetadata: false,
    });
  });
});

describe('GET /conversions query validation', () => {
  it('When every parameter is wrong, then each is listed in order and message is the first', () => {
    expect(errorsOf(() => validateListRequest({ status: ['pending', 'failed'], per_page: '1.5', page: '-3' }))).toEqual(
      {
        status: 422,
        body: {
          message: 'The selected status is invalid.',
          errors: {
            status: ['The selected status is invalid.'],
            per_page: ['The per page field must be an integer.'],
            page: ['The page field must be at least 1.'],
          },
        },
      },
    );
  });

  it('When page is not a whole number, then it answers that it must be an integer', () => {
    expect(errorsOf(() => validateListRequest({ page: '2abc', per_page: '999x' }))).toEqual({
      status: 422,
      body: {
        message: 'The per page field must be an integer.',
        errors: { per_page: ['The per page field must be an integer.'], page: ['The page field must be an integer.'] },
      },
    });
  });

  it('When numbers have spaces around them, then they are read; absent ones take the defaults', () => {
    expect(validateListRequest({ per_page: ' 50 ', status: 'completed' })).toEqual({
      status: 'completed',
      page: 1,
      perPage: 50,
    });
    expect(validateListRequest({})).toEqual({ status: undefined, page: 1, perPage: 20 });
  });
});
