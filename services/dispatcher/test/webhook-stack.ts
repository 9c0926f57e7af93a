import request from 'supertest';
import { silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../src/dispatcher-service';
import { makeCertificate, startReceiver } from './receiver';

export interface WebhookStackOptions {
  /** WEBHOOK_RETRY_DELAYS_MS. */
  delaysMs: number[];
  /** WEBHOOK_TIMEOUT_MS. */
  timeoutMs: number;
  /** PENDING_REPUBLISH_AFTER_MS, when the file needs the gateway to republish quickly. */
  republishAfterMs?: number;
  /** Start a dispatcher in beforeAll (default true); a file that starts its own later says false. */
  dispatcher?: boolean;
  /** The credits of the file's workspace (business plan). */
  credits?: number;
}

/**
 * What every dispatcher test file sets up, once: the gateway and a converter (startStack), a
 * dispatcher, an HTTPS receiver with a self-signed certificate the dispatcher trusts, and a
 * workspace. Fields are filled in beforeAll; afterAll stops everything.
 */
export class WebhookStack {
  stack!: Stack;
  receiver!: Awaited<ReturnType<typeof startReceiver>>;
  dispatcher: DispatcherService | undefined;
  token!: string;

  async startDispatcher(): Promise<void> {
    this.dispatcher = await startDispatcher(this.stack.env.config, silentLogger);
  }

  async stopDispatcher(): Promise<void> {
    await this.dispatcher?.stop();
    this.dispatcher = undefined;
  }

  /** POST /convert with webhook_url = the receiver's `path`; returns the queued conversion's id. */
  async convertAsync(
    path: string,
    opts: { secret?: string; name?: string; content?: string; metadata?: boolean } = {},
  ): Promise<string> {
    let req = request(this.stack.gateway.url)
      .post('/convert')
      .set(...bearer(this.token))
      .field('webhook_url', this.receiver.url(path));
    if (opts.secret) req = req.field('webhook_secret', opts.secret);
    if (opts.metadata) req = req.field('include_metadata', 'true');
    const res = await req.attach('file', Buffer.from(opts.content ?? '# Hi\n'), opts.name ?? 'hi.md');
    if (res.status !== 202) throw new Error(`POST /convert answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  }

  /** GET /conversions/{id} as the file's workspace: the body. */
  async detail(id: string) {
    return (
      await request(this.stack.gateway.url)
        .get(`/conversions/${id}`)
        .set(...bearer(this.token))
    ).body;
  }
}

/** Registers the file's beforeAll/afterAll and returns the stack they fill. */
export function useWebhookStack(options: WebhookStackOptions): WebhookStack {
  const w = new WebhookStack();
  const cert = makeCertificate();
  beforeAll(async () => {
    process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
    w.stack = await startStack({
      env: {
        WEBHOOK_RETRY_DELAYS_MS: options.delaysMs.join(','),
        WEBHOOK_TIMEOUT_MS: String(options.timeoutMs),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...(options.republishAfterMs === undefined
          ? {}
          : { PENDING_REPUBLISH_AFTER_MS: String(options.republishAfterMs) }),
      },
    });
    if (options.dispatcher !== false) await w.startDispatcher();
    w.receiver = await startReceiver(cert);
    ({ token: w.token } = await w.stack.workspace('business', options.credits ?? 1000));
  }, 60_000);
  afterAll(async () => {
    await w.stopDispatcher();
    await w.receiver?.close();
    await w.stack?.stop();
    cert.cleanup();
  });
  return w;
}
