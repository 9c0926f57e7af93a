import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let token: string;
let workspaceId: string;
beforeAll(async () => {
  stack = await startStack({ converter: false });
  ({ token, workspaceId } = await stack.workspace('business', 1000));
});
afterAll(() => stack?.stop());

const post = () =>
  request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token));
const txt = Buffer.from('hello');

async function balance(): Promise<number> {
  return (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;
}

describe('POST /convert validation (422) and the upload cap (413)', () => {
  it('When no file is sent, then it answers 422 with errors.file required', async () => {
    const res = await post().field('include_metadata', 'true');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The file field is required.',
      errors: { file: ['The file field is required.'] },
    });
  });

  it('When the extension is not supported, then it answers 422 naming the allowed types', async () => {
    const res = await post().attach('file', txt, 'virus.exe');
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toEqual([
      'The file field must be a file of type: pdf, docx, doc, xlsx, xls, pptx, ppt, html, htm, txt, rtf, csv, xml, json, md, markdown, epub, odt, ods, odp, jpg, jpeg, png, wav, mp3, m4a.',
    ]);
    expect(res.body.message).toBe(res.body.errors.file[0]);
  });

  it('When the file has no extension, then it answers 422 on file', async () => {
    const res = await post().attach('file', txt, 'README');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['file']);
  });

  it('When the file is over the plan limit (free: 5 MB), then it answers 422 on file and charges nothing', async () => {
    const free = await stack.workspace('free', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(free.token))
      .attach('file', Buffer.alloc(5 * 1024 * 1024 + 1, 0x61), 'big.txt');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The file field must not be greater than 5120 kilobytes.',
      errors: { file: ['The file field must not be greater than 5120 kilobytes.'] },
    });
    const after = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: free.workspaceId } });
    expect(after.creditBalance).toBe(10);
  });

  it('When the file is exactly at the business limit of 50 MB, then it is accepted', async () => {
    const res = await post()
      .field('webhook_url', 'https://example.com/hook')
      .attach('file', Buffer.alloc(50 * 1024 * 1024, 0x61), 'limit.txt');
    expect(res.status).toBe(202);
  });

  it('When the file is over the 60 MB server cap, then it answers 413 with only a message, before validation', async () => {
    const res = await post()
      .field('webhook_url', 'not a url')
      .attach('file', Buffer.alloc(60 * 1024 * 1024 + 1, 0x61), 'huge.exe');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The uploaded file exceeds the server limit of 60 MB.' });
  });

  it('When webhook_url is not a URL, then it answers 422 on webhook_url', async () => {
    const res = await post().field('webhook_url', 'not a url').attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The webhook url field must be a valid URL.',
      errors: { webhook_url: ['The webhook url field must be a valid URL.'] },
    });
  });

  it('When webhook_url uses http, then it answers 422 because HTTPS is required', async () => {
    const res = await post().field('webhook_url', 'http://example.com/hook').attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ webhook_url: ['The webhook url field must start with https://.'] });
  });

  it('When webhook_url is longer than 2048 characters, then it answers 422 on its length', async () => {
    const url = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
    expect(url.length).toBe(2049);
    const res = await post().field('webhook_url', url).attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      webhook_url: ['The webhook url field must not be greater than 2048 characters.'],
    });
  });

  it('When webhook_secret has 31 characters, then it answers 422 (minimum 32)', async () => {
    const res = await post()
      .field('webhook_url', 'https://example.com/hook')
      .field('webhook_secret', 's'.repeat(31))
      .attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ webhook_secret: ['The webhook secret field must be at least 32 characters.'] });
  });

  it('When webhook_secret has 256 characters, then it answers 422 (maximum 255)', async () => {
    const res = await post()
      .field('webhook_url', 'https://example.com/hook')
      .field('webhook_secret', 's'.repeat(256))
      .attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      webhook_secret: ['The webhook secret field must not be greater than 255 characters.'],
    });
  });

  it('When a boolean flag is not a boolean word, then it answers 422 on that field', async () => {
    const res = await post().field('use_enhanced_ai', 'maybe').attach('file', txt, 'a.txt');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ use_enhanced_ai: ['The use enhanced ai field must be true or false.'] });
  });

  it('When several fields fail, then message is the first and errors lists every field in order', async () => {
    const res = await post()
      .field('webhook_url', 'ftp://x')
      .field('webhook_secret', 'short')
      .field('optimize_tokens', 'perhaps')
      .attach('file', txt, 'a.bin');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['file', 'webhook_url', 'webhook_secret', 'optimize_tokens']);
    expect(res.body.message).toBe(res.body.errors.file[0]);
  });

  it('When validation fails, then no conversion is created and no credit is charged', async () => {
    const before = await balance();
    const count = await stack.gateway.db.conversion.count({ where: { workspaceId } });
    await post().field('webhook_url', 'nope').attach('file', txt, 'a.txt');
    expect(await balance()).toBe(before);
    expect(await stack.gateway.db.conversion.count({ where: { workspaceId } })).toBe(count);
  });

  it.each(['TRUE', 'Yes', 'on', '1', 'false', 'OFF', 'no', '0'])(
    'When a boolean flag is %s, then it is accepted',
    async (word) => {
      const res = await post()
        .field('include_metadata', word)
        .field('webhook_url', 'https://example.com/hook')
        .attach('file', txt, 'a.txt');
      expect(res.status).toBe(202);
    },
  );

  it('When the extension is upper case, then it is accepted (the check ignores case)', async () => {
    const res = await post().field('webhook_url', 'https://example.com/hook').attach('file', txt, 'NOTES.TXT');
    expect(res.status).toBe(202);
  });
});
