import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';

/** Issue 12: bodies the multipart parser refuses, and the form's own limits, answer 4xx without internals. */
let stack: Stack;
let token: string;
let workspaceId: string;
beforeAll(async () => {
  stack = await startStack({ converter: false });
  ({ token, workspaceId } = await stack.workspace('free', 10));
});
afterAll(() => stack?.stop());

const BOUNDARY = 'XyZBoundary';
const MALFORMED = {
  message: 'The request body is not valid multipart/form-data.',
  errors: { file: ['The request body is not valid multipart/form-data.'] },
};

const rawPost = (body: string | Buffer) =>
  request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
    .send(Buffer.from(body));

const filePart = (disposition: string, content = 'hello') =>
  `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const end = `--${BOUNDARY}--\r\n`;

async function balance(): Promise<number> {
  return (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;
}

describe('malformed multipart bodies and form limits', () => {
  it('When a filename holds a raw control character, then it answers 422 on file and charges nothing', async () => {
    const res = await rawPost(filePart('form-data; name="file"; filename="a\x01b.txt"') + end);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(MALFORMED);
    expect(await balance()).toBe(10);
  });

  it('When a filename encodes a NUL or newline (RFC 5987), then it answers 422 on file and charges nothing', async () => {
    for (const encoded of ['a%00b.txt', 'a%0Ab.txt']) {
      const res = await rawPost(filePart(`form-data; name="file"; filename*=UTF-8''${encoded}`) + end);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'The file name must not contain control characters.',
        errors: { file: ['The file name must not contain control characters.'] },
      });
    }
    expect(await balance()).toBe(10);
  });

  it('When the body ends before its closing boundary, then it answers 422 on file', async () => {
    const res = await rawPost(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel`,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual(MALFORMED);
  });

  it('When a part has no name, then it answers 422 without the parser message', async () => {
    const res = await rawPost(filePart('form-data; filename="a.txt"') + end);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(MALFORMED);
  });

  it('When the form has more than 20 fields, then it answers 422 on form', async () => {
    const fields = Array.from(
      { length: 25 },
      (_, i) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
    );
    const res = await rawPost(fields.join('') + filePart('form-data; name="file"; filename="a.txt"') + end);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The form may have at most 20 fields.',
      errors: { form: ['The form may have at most 20 fields.'] },
    });
  });

  it('When a field name is longer than 100 bytes, then it answers 422 on form', async () => {
    const res = await rawPost(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${'n'.repeat(150)}"\r\n\r\nx\r\n` +
        filePart('form-data; name="file"; filename="a.txt"') +
        end,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ form: ['A field name is longer than 100 bytes.'] });
  });

  it('When two files are sent, then it answers 422 on file', async () => {
    const res = await rawPost(
      filePart('form-data; name="file"; filename="a.txt"') + filePart('form-data; name="file"; filename="b.txt"') + end,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ file: ['Only one file may be uploaded, in the file field.'] });
    expect(await balance()).toBe(10);
  });

  it('When a path parameter is not valid percent-encoding, then it answers 400 bad_request, not 500', async () => {
    const res = await request(stack.gateway.url)
      .get('/conversions/%E0%A4%A')
      .set(...bearer(token));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'bad_request', message: 'The request could not be read.' });
  });
});
