import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger } from '@markwright/config';
import { requestContext } from '../src/entry-points/http/request-id';

/** The raw lines the request context writes, and how many child loggers it made. */
function loggedApp() {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('gateway', 'info', capture);
  let children = 0;
  const child = logger.child;
  // Counted for the logger and every logger made from it (they inherit `child` from it).
  logger.child = function (this: typeof logger, ...args: Parameters<typeof child>) {
    children += 1;
    return child.apply(this, args);
  } as typeof logger.child;
  const app = express();
  app.use(requestContext(logger));
  const api = express.Router();
  api.get('/conversions', (req, res) => {
    req.log.info({ conversionId: 'c-1' }, 'conversion read');
    res.json({ data: [] });
  });
  app.use('/api/v1', api);
  return { app, lines, children: () => children };
}

/** What varies from run to run: the time and the response time. */
const steady = (line: string) =>
  line.replace(/"time":"[^"]+"/, '"time":"T"').replace(/"responseTime":\d+/, '"responseTime":N');

describe('access lines', () => {
  it('When a request is served, then one child logger carries its id and the access line is the one pino-http wrote, field for field', async () => {
    const { app, lines, children } = loggedApp();
    const res = await request(app)
      .get('/api/v1/conversions?access_token=mwk_notlogged&page=2')
      .set('X-Request-Id', 'line-1');
    expect(res.status).toBe(200);
    expect(children()).toBe(1);
    expect(lines.map(steady)).toEqual([
      '{"level":30,"time":"T","service":"gateway","name":"gateway","requestId":"line-1","conversionId":"c-1","msg":"conversion read"}',
      '{"level":30,"time":"T","service":"gateway","name":"gateway","requestId":"line-1","req":{"method":"GET","url":"/api/v1/conversions?access_token=[redacted]&page=2"},"res":{"statusCode":200},"responseTime":N,"msg":"request completed"}',
    ]);
  });

  it('When a route answers 5xx, then the access line says "request errored" with the status as the error', async () => {
    const { app, lines } = loggedApp();
    app.get('/broken', (_req, res) => {
      res.status(503).json({});
    });
    await request(app).get('/broken').set('X-Request-Id', 'line-2');
    const line = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({
      requestId: 'line-2',
      req: { method: 'GET', url: '/broken' },
      res: { statusCode: 503 },
      err: { type: 'Error', message: 'failed with status code 503' },
      msg: 'request errored',
    });
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'service',
      'name',
      'requestId',
      'req',
      'res',
      'err',
      'responseTime',
      'msg',
    ]);
  });
});
