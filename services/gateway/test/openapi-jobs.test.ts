import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../src/entry-points/http/openapi';
import { AppError } from '../src/domain/app-error';
import { AT_CAPACITY_RETRY_AFTER_SECONDS } from '../src/domain/job-admission';
import { loadConfig } from '@markwright/config';

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

describe('The OpenAPI document: file_url (E5)', () => {
  it('When the convert form is read, then file_url is an https URI of at most 2048 characters beside file', () => {
    const form = doc.paths['/convert'].post.requestBody.content['multipart/form-data'].schema as Json;
    const resolved = form.$ref ? doc.components.schemas[String(form.$ref).split('/').pop()!] : form;
    expect(Object.keys(resolved.properties).slice(0, 2)).toEqual(['file', 'file_url']);
    expect(resolved.properties.file_url).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048 });
    expect(resolved.properties.file_url.description).toMatch(/Instead of file/);
  });
});

describe('Configuration of the jobs extensions', () => {
  it('When nothing is set, then MAX_QUEUED_JOBS is 10000, FETCH_TIMEOUT_MS 30 s and private networks are refused', () => {
    expect(loadConfig({})).toMatchObject({
      MAX_QUEUED_JOBS: 10_000,
      FETCH_TIMEOUT_MS: 30_000,
      ALLOW_PRIVATE_NETWORKS: false,
    });
  });

  it('When FETCH_TIMEOUT_MS is not a positive integer, then the configuration names it', () => {
    expect(() => loadConfig({ FETCH_TIMEOUT_MS: 'soon' })).toThrow(/FETCH_TIMEOUT_MS/);
  });
});
