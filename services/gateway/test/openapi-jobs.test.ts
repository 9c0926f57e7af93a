import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../src/entry-points/http/openapi';
import { AppError } from '../src/domain/app-error';
import { AT_CAPACITY_RETRY_AFTER_SECONDS } from '../src/domain/job-admission';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('binary', true);
ajv.addSchema(doc, 'openapi');

const bodySchema = (pathName: string, method: string, status: string) =>
  ajv.getSchema(
    `openapi#/paths/${pathName.replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`,
  )!;

describe('The OpenAPI document: jobs extensions (E9, E10, E11)', () => {
  it('When POST /convert is at capacity, then the 503 body and its Retry-After are documented', () => {
    const op = doc.paths['/convert'].post.responses['503'];
    expect(Object.keys(op.headers)).toEqual(['Retry-After']);
    const validate = bodySchema('/convert', 'post', '503');
    expect(validate(AppError.atCapacity(AT_CAPACITY_RETRY_AFTER_SECONDS).body)).toBe(true);
    expect(validate({ error: 'other', message: 'x' })).toBe(false);
  });

  it('When redeliver is looked up, then 202, 404 and both 409 codes are documented with their bodies', () => {
    const path = '/conversions/{id}/webhook/redeliver';
    expect(Object.keys(doc.paths[path].post.responses).sort()).toEqual(['202', '401', '404', '409', '429']);
    const accepted = {
      id: '0190a3e4-0000-7000-8000-000000000000',
      message: 'The webhook is being sent again.',
      status_url: '/api/v1/conversions/0190a3e4-0000-7000-8000-000000000000',
    };
    expect(bodySchema(path, 'post', '202')(accepted)).toBe(true);
    expect(bodySchema(path, 'post', '409')(AppError.noWebhook().body)).toBe(true);
    expect(bodySchema(path, 'post', '409')(AppError.webhookNotFinished().body)).toBe(true);
  });

  it('When the webhook is read, then the Standard Webhooks headers are documented beside the contract’s', () => {
    const headers = doc.webhooks['conversion.finished'].post.parameters
      .filter((p: Json) => p.in === 'header')
      .map((p: Json) => [p.name, p.required ?? false]);
    expect(headers).toEqual(
      expect.arrayContaining([
        ['X-Webhook-Signature', false],
        ['webhook-id', true],
        ['webhook-timestamp', true],
        ['webhook-signature', false],
      ]),
    );
  });
});
