import { eventually, silentLogger } from '@markwright/test-support';
import { Broker, JobPublisher, parseSecretKey, topologyNames } from '@markwright/contracts';
import { acceptConversion } from '../src/domain/accept-conversion';
import { FinishedWaiters } from '../src/domain/finished-waiters';
import { validateConvertRequest } from '../src/domain/convert-request';
import { republishStalePending } from '../src/domain/republish-pending';
import { startStack, type Stack } from './stack';

let stack: Stack;
let broker: Broker;
beforeAll(async () => {
  // The stack's own sweeper leaves pending rows alone for a minute: this file sweeps when it is time.
  stack = await startStack({ env: { PENDING_REPUBLISH_AFTER_MS: '60000' } });
  broker = await Broker.connect(stack.env.config.AMQP_URL);
});
afterAll(async () => {
  await broker?.close();
  await stack?.stop();
});

async function publisherOn(on: Broker): Promise<JobPublisher> {
  return JobPublisher.create(on, topologyNames(stack.env.prefix), stack.env.config.JOB_DELIVERY_LIMIT);
}

describe('A sync upload that was to ride in its job', () => {
  it('When its job cannot be published, then the upload is stored and the job the sweeper publishes converts it', async () => {
    const { workspaceId } = await stack.workspace('starter', 10);
    // A publisher whose broker connection is closed: its publish fails (at its confirm timeout), as with the broker gone.
    const gone = await Broker.connect(stack.env.config.AMQP_URL);
    const failing = await publisherOn(gone);
    await gone.close();
    const text = Buffer.from('# Refused once\n\nThe text.\n');
    const file = { originalname: 'refused.txt', size: text.length, buffer: text };

    const answer = acceptConversion(
      {
        db: stack.gateway.db,
        publisher: failing,
        // Not told of finished events: the request learns the result by reading its row.
        listener: new FinishedWaiters(),
        logger: silentLogger,
        syncTimeoutMs: 60_000,
        syncPollMs: 100,
        credits: { charged: () => undefined, refunded: () => undefined },
        webhookSecretKey: parseSecretKey(stack.env.config.WEBHOOK_SECRET_KEY),
      },
      { id: workspaceId, plan: 'starter' },
      validateConvertRequest('starter', file, {}),
    );
    const row = await eventually(() =>
      stack.gateway.db.conversion.findFirst({ where: { workspaceId } }).then((r) => r ?? undefined),
    );
    await eventually(
      () => stack.gateway.db.upload.findUnique({ where: { conversionId: row.id } }).then((u) => u ?? undefined),
      45_000,
    );
    const working = await publisherOn(broker);
    await republishStalePending({
      db: stack.gateway.db,
      publisher: working,
      logger: silentLogger,
      republishAfterMs: 0,
    });

    const answered = await answer;
    expect({ kind: answered.kind, markdown: (answered.body as { markdown?: string }).markdown }).toEqual({
      kind: 'converted',
      markdown: '# Refused once\n\nThe text.\n',
    });
    await working.close();
  }, 90_000);
});
