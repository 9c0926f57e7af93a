import { execFileSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildPayload } from '../../dispatcher/src/domain/payload';
import { bearer, startStack, type Stack } from './stack';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let stack: Stack;
let doc: Json;
let token: string;
beforeAll(async () => {
  stack = await startStack({ converter: true });
  ({ token } = await stack.workspace('business', 100));
  doc = (await request(`http://127.0.0.1:${stack.gateway.port}`).get('/api/v1/openapi.json')).body as Json;
});
afterAll(() => stack?.stop());

const api = () => request(stack.gateway.url);

/** Follows a local $ref ("#/components/schemas/X") to its schema. */
function resolve(schema: Json): Json {
  if (!schema.$ref) return schema;
  const parts = (schema.$ref as string).replace(/^#\//, '').split('/');
  return resolve(parts.reduce((node: Json, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
}

/** The body schemas an operation's status may answer with (a oneOf/anyOf spread out). */
function bodies(pathName: string, method: string, status: string): Json[] {
  const response = doc.paths[pathName][method].responses[status];
  expect(response).toBeDefined();
  const schema = resolve(response.content['application/json'].schema);
  const union = schema.oneOf ?? schema.anyOf;
  return union ? union.map(resolve) : [schema];
}

/** "string", "integer", "string|null", "object", ... of a property, refs followed. */
function typeOf(schema: Json): string {
  const s = resolve(schema);
  if (s.type) return ([] as string[]).concat(s.type).join('|');
  if (s.oneOf || s.anyOf) return 'object';
  return 'unknown';
}

/** Asserts fields as the contract's tables list them: name → [type, required]. */
function expectFields(schema: Json, fields: Record<string, [string, boolean]>): void {
  const s = resolve(schema);
  for (const [name, [type, required]] of Object.entries(fields)) {
    expect([name, s.properties?.[name] ? typeOf(s.properties[name]) : 'missing']).toEqual([name, type]);
    expect([name, (s.required ?? []).includes(name)]).toEqual([name, required]);
  }
}

const constOf = (schema: Json, field: string): unknown => resolve(schema).properties?.[field]?.enum?.[0];

describe('The OpenAPI document', () => {
  it('When it is fetched without a token, then it is a valid OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    // The validator is ESM-only (it finds its JSON schemas through import.meta), so it runs in its own node.
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
      let input = ''; for await (const chunk of process.stdin) input += chunk;
      const v = new Validator(); const r = await v.validate(JSON.parse(input));
      console.log(JSON.stringify({ valid: r.valid, version: v.version, errors: r.errors }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: path.join(__dirname, '..'),
      input: JSON.stringify(doc),
    });
    expect(JSON.parse(out.toString())).toEqual({ valid: true, version: '3.1', errors: undefined });
  });

  it('When it is read, then the bearer scheme guards every endpoint but the document itself', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    for (const p of ['/convert', '/conversions', '/conversions/{id}']) {
      for (const op of Object.values(doc.paths[p]) as Json[]) expect(op.security).toBeUndefined();
    }
  });

  it('When POST /convert is read, then its form has the contract parameters and rules', () => {
    const form = resolve(doc.paths['/convert'].post.requestBody.content['multipart/form-data'].schema);
    expect(form.required).toEqual(['file']);
    expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties.webhook_url).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048 });
    expect(form.properties.webhook_secret).toMatchObject({ type: 'string', minLength: 32, maxLength: 255 });
    for (const flag of ['use_enhanced_ai', 'optimize_tokens', 'include_metadata']) {
      expect(form.properties[flag].type).toBe('string');
      expect(form.properties[flag].enum).toEqual(expect.arrayContaining(['true', 'false']));
    }
  });

  it('When POST /convert is read, then its form has the E1–E4 fields with their rules', () => {
    const form = resolve(doc.paths['/convert'].post.requestBody.content['multipart/form-data'].schema);
    for (const flag of ['include_pages', 'include_document']) {
      expect(form.properties[flag].type).toBe('string');
      expect(form.properties[flag].enum).toEqual(expect.arrayContaining(['true', 'false']));
    }
    expect(form.properties.chunk_max_tokens).toMatchObject({ type: 'integer', minimum: 64, maximum: 8192 });
    expect(form.properties.page_range.type).toBe('string');
    const pattern = new RegExp(form.properties.page_range.pattern as string);
    expect(['1', '1-3,7', '2-9'].every((r) => pattern.test(r))).toBe(true);
    expect(['a', '1-', ''].some((r) => pattern.test(r))).toBe(false);
    expect(form.required).toEqual(['file']);
  });

  it('When the bodies that carry a result are read, then pages, chunks and document are optional named components, Document with its blocks', () => {
    for (const name of ['Page', 'Chunk', 'Document']) expect(doc.components.schemas[name]).toBeDefined();
    const document = resolve(doc.components.schemas.Document);
    expect(document.required).toEqual(['version', 'blocks']);
    expectFields(doc.components.schemas.Chunk, {
      index: ['integer', true],
      markdown: ['string', true],
      tokens: ['integer', true],
      pages: ['array', true],
      headings: ['array', true],
    });
    const completedDetail = bodies('/conversions/{id}', 'get', '200')
      .flatMap((s) => (s.oneOf ?? s.anyOf ?? [s]).map(resolve))
      .find((s) => constOf(s, 'status') === 'completed')!;
    const completedWebhook = resolve(doc.components.schemas.CompletedWebhookPayload);
    for (const schema of [bodies('/convert', 'post', '200')[0]!, completedDetail, completedWebhook]) {
      expectFields(schema, { pages: ['array', false], chunks: ['array', false], document: ['object', false] });
      expect(resolve(schema).properties.document.$ref).toBe('#/components/schemas/Document');
    }
    for (const schema of [
      resolve(doc.components.schemas.ConversionListItem),
      resolve(doc.components.schemas.FailedWebhookPayload),
    ]) {
      for (const key of ['pages', 'chunks', 'document']) expect(schema.properties).not.toHaveProperty(key);
    }
  });

  it('When the Responses table of POST /convert is read, then each status has its body', () => {
    const op = (status: string) => bodies('/convert', 'post', status);
    expect(Object.keys(doc.paths['/convert'].post.responses).sort()).toEqual(
      ['200', '202', '401', '402', '409', '413', '422', '429', '503'].sort(),
    );
    expectFields(op('200')[0]!, {
      success: ['boolean', true],
      markdown: ['string', true],
      credits_used: ['integer', true],
      credits_remaining: ['integer', true],
      metadata: ['object', false],
      token_optimization: ['object', false],
    });
    expectFields(resolve(op('200')[0]!).properties.token_optimization, {
      original_tokens: ['integer', true],
      optimized_tokens: ['integer', true],
      reduction_percent: ['number', true],
    });
    expectFields(resolve(op('200')[0]!).properties.metadata, {
      title: ['string', true],
      author: ['string', true],
      page_count: ['integer', true],
    });
    expectFields(op('202')[0]!, {
      id: ['string', true],
      status: ['string', true],
      message: ['string', true],
      status_url: ['string', true],
      credits_used: ['integer', true],
      credits_remaining: ['integer', true],
    });
    expect(constOf(op('202')[0]!, 'status')).toBe('pending');
    for (const status of ['401', '413', '429']) {
      expect(Object.keys(op(status)[0]!.properties)).toEqual(['message']);
    }
    expectFields(op('402')[0]!, {
      error: ['string', true],
      message: ['string', true],
      credits_required: ['integer', true],
      credits_available: ['integer', true],
    });
    expect(constOf(op('402')[0]!, 'error')).toBe('insufficient_credits');
    const [validation, failed] = op('422');
    expectFields(validation!, { message: ['string', true], errors: ['object', true] });
    expect(resolve(validation!).properties.errors.additionalProperties).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expectFields(failed!, { error: ['string', true], message: ['string', true] });
    expect(constOf(failed!, 'error')).toBe('conversion_failed');
    expect(Object.keys(doc.paths['/convert'].post.responses['429'].headers)).toContain('Retry-After');
  });

  it('When GET /conversions/{id} is read, then the detail has the fields of the presence table per status', () => {
    const op = doc.paths['/conversions/{id}'].get;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '404', '429']);
    expect(op.parameters).toEqual([
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ format: 'uuid' }),
      }),
    ]);
    const always = {
      id: ['string', true],
      status: ['string', true],
      original_filename: ['string', true],
      created_at: ['string', true],
      webhook_delivered: ['boolean', true],
      can_retry_webhook: ['boolean', true],
    } as Record<string, [string, boolean]>;
    const additional: Record<string, Record<string, [string, boolean]>> = {
      pending: {},
      processing: { started_at: ['string', true] },
      completed: {
        markdown: ['string', true],
        completed_at: ['string', true],
        metadata: ['object', false],
        // E1, E3, E4: only when the conversion asked for them.
        pages: ['array', false],
        chunks: ['array', false],
        document: ['object', false],
      },
      failed: { error: ['string', true], completed_at: ['string', true] },
    };
    const byStatus = new Map(bodies('/conversions/{id}', 'get', '200').map((s) => [constOf(s, 'status'), s]));
    expect([...byStatus.keys()].sort()).toEqual(['completed', 'failed', 'pending', 'processing']);
    for (const [status, extra] of Object.entries(additional)) {
      const schema = byStatus.get(status)!;
      expectFields(schema, { ...always, ...extra });
      expect(Object.keys(schema.properties).sort()).toEqual(Object.keys({ ...always, ...extra }).sort());
    }
    expectFields(bodies('/conversions/{id}', 'get', '404')[0]!, { error: ['string', true], message: ['string', true] });
    expect(constOf(bodies('/conversions/{id}', 'get', '404')[0]!, 'error')).toBe('not_found');
  });

  it('When GET /conversions is read, then its query and page have the contract fields', () => {
    const op = doc.paths['/conversions'].get;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '422', '429']);
    const params = Object.fromEntries((op.parameters as Json[]).map((p) => [p.name, p]));
    expect(params.status.schema.enum).toEqual(['pending', 'processing', 'completed', 'failed']);
    expect(params.per_page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(params.page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    const page = bodies('/conversions', 'get', '200')[0]!;
    expectFields(page, {
      current_page: ['integer', true],
      data: ['array', true],
      first_page_url: ['string', true],
      from: ['integer|null', true],
      last_page: ['integer', true],
      last_page_url: ['string', true],
      links: ['array', true],
      next_page_url: ['string|null', true],
      path: ['string', true],
      per_page: ['integer', true],
      prev_page_url: ['string|null', true],
      to: ['integer|null', true],
      total: ['integer', true],
    });
    expectFields(resolve(page).properties.links.items, {
      url: ['string|null', true],
      label: ['string', true],
      active: ['boolean', true],
    });
    const item = resolve(resolve(page).properties.data.items);
    expect(Object.keys(item.properties).sort()).toEqual(
      [
        'id',
        'status',
        'original_filename',
        'extension',
        'file_size_bytes',
        'use_enhanced_ai',
        'created_at',
        'started_at',
        'completed_at',
      ].sort(),
    );
    expectFields(item, {
      file_size_bytes: ['integer', true],
      use_enhanced_ai: ['boolean', true],
      started_at: ['string|null', true],
      completed_at: ['string|null', true],
    });
    expectFields(bodies('/conversions', 'get', '422')[0]!, { message: ['string', true], errors: ['object', true] });
  });

  it('When the webhook is read, then it has its headers, the signature rule and both payloads', () => {
    const hook = doc.webhooks['conversion.finished'].post;
    const headers = Object.fromEntries((hook.parameters as Json[]).map((p) => [p.name, p]));
    expect(headers['X-Webhook-Signature']).toMatchObject({ in: 'header', required: false });
    expect(headers['X-Webhook-Signature'].description).toMatch(/HMAC-SHA256.*webhook_secret.*constant time/s);
    expect(headers['X-Webhook-Conversion-Id']).toMatchObject({ in: 'header', required: true });
    const payload = resolve(hook.requestBody.content['application/json'].schema);
    const byStatus = new Map((payload.oneOf as Json[]).map((s) => [constOf(s, 'status'), s]));
    expectFields(byStatus.get('completed')!, {
      id: ['string', true],
      status: ['string', true],
      created_at: ['string', true],
      markdown: ['string', true],
      completed_at: ['string', true],
      metadata: ['object', false],
    });
    expectFields(byStatus.get('failed')!, {
      id: ['string', true],
      status: ['string', true],
      created_at: ['string', true],
      error: ['string', true],
      completed_at: ['string', true],
    });
  });
});

describe('Served bodies against the document', () => {
  let ajv: Ajv2020;
  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema(closeObjects(structuredClone(doc)), 'openapi');
  });

  /** The test holds bodies to exactly the documented fields: every object schema gets additionalProperties false. */
  function closeObjects(node: Json): Json {
    if (Array.isArray(node)) node.forEach(closeObjects);
    else if (node && typeof node === 'object') {
      if (node.type === 'object' && node.properties && node.additionalProperties === undefined) {
        node.additionalProperties = false;
      }
      Object.values(node).forEach(closeObjects);
    }
    return node;
  }

  function validator(pointer: string): ValidateFunction {
    return ajv.getSchema(`openapi#${pointer}`)!;
  }
  const response = (pathName: string, method: string, status: string) =>
    validator(`/paths/${pathName.replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`);

  function expectValid(validate: ValidateFunction, body: unknown): void {
    expect(validate).toBeDefined();
    const ok = validate(body);
    expect({ ok, errors: validate.errors ?? null, body }).toEqual({ ok: true, errors: null, body });
  }

  it('When a sync conversion succeeds with metadata and token optimization, then its 200 matches the document', async () => {
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .field('include_metadata', 'true')
      .field('optimize_tokens', 'true')
      .attach('file', Buffer.from('# Title\n\nSome   text.\n'), 'note.md');
    expect(res.status).toBe(200);
    expect(res.body.token_optimization).toBeDefined();
    expectValid(response('/convert', 'post', '200'), res.body);
  });

  it('When a sync conversion asks for pages, chunks and the document, then its 200 matches the document', async () => {
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .field('include_pages', 'true')
      .field('chunk_max_tokens', '64')
      .field('include_document', 'true')
      .attach(
        'file',
        Buffer.from('# Title\n\nSome *text* with a [link](https://example.com).\n\n- one\n- two\n'),
        'note.md',
      );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).slice(-3)).toEqual(['pages', 'chunks', 'document']);
    expectValid(response('/convert', 'post', '200'), res.body);
  });

  it('When a conversion is queued, then its 202 and its detail match the document', async () => {
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', 'https://example.com/hook')
      .attach('file', Buffer.from('queued'), 'queued.txt');
    expect(res.status).toBe(202);
    expectValid(response('/convert', 'post', '202'), res.body);
    const detail = await api()
      .get(`/conversions/${res.body.id}`)
      .set(...bearer(token));
    expect(detail.status).toBe(200);
    expectValid(response('/conversions/{id}', 'get', '200'), detail.body);
  });

  it('When a sync conversion fails, then its 422 conversion_failed and the failed detail match the document', async () => {
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('not a pdf at all'), 'broken.pdf');
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('conversion_failed');
    expectValid(response('/convert', 'post', '422'), res.body);
    const list = await api()
      .get('/conversions?status=failed&per_page=1')
      .set(...bearer(token));
    expectValid(response('/conversions', 'get', '200'), list.body);
    const detail = await api()
      .get(`/conversions/${list.body.data[0].id}`)
      .set(...bearer(token));
    expect(detail.body.status).toBe('failed');
    expectValid(response('/conversions/{id}', 'get', '200'), detail.body);
  });

  it('When requests are refused, then the 401, 402, 404 and 422 bodies match the document', async () => {
    const unauthenticated = await api().get('/conversions');
    expect(unauthenticated.status).toBe(401);
    expectValid(response('/conversions', 'get', '401'), unauthenticated.body);
    const poor = await stack.workspace('free', 0);
    const noCredits = await api()
      .post('/convert')
      .set(...bearer(poor.token))
      .attach('file', Buffer.from('x'), 'a.txt');
    expect(noCredits.status).toBe(402);
    expectValid(response('/convert', 'post', '402'), noCredits.body);
    const missing = await api()
      .get('/conversions/0190a0b0-0000-7000-8000-000000000000')
      .set(...bearer(token));
    expect(missing.status).toBe(404);
    expectValid(response('/conversions/{id}', 'get', '404'), missing.body);
    const invalid = await api()
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', 'http://example.com')
      .attach('file', Buffer.from('x'), 'a.exe');
    expect(invalid.status).toBe(422);
    expectValid(response('/convert', 'post', '422'), invalid.body);
    const badQuery = await api()
      .get('/conversions?per_page=500')
      .set(...bearer(token));
    expect(badQuery.status).toBe(422);
    expectValid(response('/conversions', 'get', '422'), badQuery.body);
  });

  it('When the convert rate limit is exceeded, then the 429 body and its Retry-After match the document', async () => {
    const free = await stack.workspace('free', 0);
    let res: request.Response | undefined;
    // Invalid requests count against the limit too (decisions.md), so these cost nothing but a 422 each.
    for (let i = 0; i <= 20; i++) {
      res = await api()
        .post('/convert')
        .set(...bearer(free.token))
        .field('include_metadata', 'true');
    }
    expect(res!.status).toBe(429);
    expectValid(response('/convert', 'post', '429'), res!.body);
    const documented = doc.paths['/convert'].post.responses['429'].headers as Json;
    for (const name of Object.keys(documented)) expect(res!.headers[name.toLowerCase()]).toBeDefined();
    expect(ajv.validate(resolve(documented['Retry-After'].schema), Number(res!.headers['retry-after']))).toBe(true);
  });

  it('When the dispatcher builds webhook bodies, then both payloads match the document', () => {
    const validate = validator('/components/schemas/WebhookPayload');
    const base = { id: '0190a0b0-0000-7000-8000-000000000001', createdAt: new Date(), completedAt: new Date() };
    const completed = buildPayload({
      ...base,
      status: 'completed',
      markdown: '# Hi',
      metadata: { title: 'Hi', author: '', page_count: 1 },
      includeMetadata: true,
      error: null,
    });
    const failed = buildPayload({
      ...base,
      status: 'failed',
      markdown: null,
      metadata: null,
      includeMetadata: false,
      error: 'Unreadable',
    });
    expectValid(validate, JSON.parse(completed));
    expectValid(validate, JSON.parse(failed));
    const structured = buildPayload({
      ...base,
      status: 'completed',
      markdown: '# Hi',
      metadata: null,
      includeMetadata: false,
      error: null,
      includePages: true,
      chunkMaxTokens: 64,
      includeDocument: true,
      pages: [{ number: 1, markdown: '# Hi' }],
      chunks: [{ index: 0, markdown: '# Hi', tokens: 2, pages: [1], headings: [] }],
      document: {
        version: 1,
        blocks: [
          { type: 'heading', level: 1, page: 1, bbox: [72, 72, 120, 90], content: [{ type: 'text', text: 'Hi' }] },
        ],
        pages: [{ number: 1, width: 595.28, height: 841.89 }],
      },
    });
    expect(Object.keys(JSON.parse(structured))).toEqual([
      'id',
      'status',
      'created_at',
      'markdown',
      'completed_at',
      'pages',
      'chunks',
      'document',
    ]);
    expectValid(validate, JSON.parse(structured));
  });

  it('When a key is replayed, a job is cancelled or deleted (E6-E8), then each answer matches the document', async () => {
    expect(doc.paths['/convert'].post.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: false }),
    );
    const convert = () =>
      api()
        .post('/convert')
        .set(...bearer(token))
        .set('Idempotency-Key', 'openapi-replay')
        .field('webhook_url', 'https://receiver.invalid/hook')
        .attach('file', Buffer.from('# Key\n'), 'key.md');
    await convert();
    const replayed = await convert();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expectValid(response('/convert', 'post', '202'), replayed.body);
    const reused = await api()
      .post('/convert')
      .set(...bearer(token))
      .set('Idempotency-Key', 'openapi-replay')
      .attach('file', Buffer.from('# Other\n'), 'other.md');
    expectValid(response('/convert', 'post', '422'), reused.body);
    const cancelled = await api()
      .post(`/conversions/${replayed.body.id}/cancel`)
      .set(...bearer(token));
    expect([200, 409]).toContain(cancelled.status);
    expectValid(response('/conversions/{id}/cancel', 'post', String(cancelled.status)), cancelled.body);
    const again = await api()
      .post(`/conversions/${replayed.body.id}/cancel`)
      .set(...bearer(token));
    expect(again.status).toBe(409);
    expectValid(response('/conversions/{id}/cancel', 'post', '409'), again.body);
    expect(Object.keys(doc.paths['/conversions/{id}'].delete.responses).sort()).toEqual(
      ['204', '401', '404', '409', '429'].sort(),
    );
    expect(
      (
        await api()
          .delete(`/conversions/${replayed.body.id}`)
          .set(...bearer(token))
      ).status,
    ).toBe(204);
    const gone = await api()
      .delete(`/conversions/${replayed.body.id}`)
      .set(...bearer(token));
    expectValid(response('/conversions/{id}', 'delete', '404'), gone.body);
  });
});
