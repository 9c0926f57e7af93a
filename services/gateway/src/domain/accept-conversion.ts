import { failConversion, type Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { AppError } from './app-error';
import { conversionCost } from './plans';
import type { ConvertRequest } from './convert-request';
import type { AuthenticatedWorkspace } from '../data-access/workspace-repository';
import { chargeAndCreateConversion, findConversion, markPublished } from '../data-access/conversion-repository';
import type { JobPublisher } from '../data-access/job-publisher';
import type { FinishedListener } from '../data-access/finished-listener';

export interface AcceptDeps {
  db: Db;
  publisher: JobPublisher;
  listener: FinishedListener;
  logger: Logger;
  syncTimeoutMs: number;
  /** How often a sync request re-reads its row, in case an event was missed. */
  syncPollMs: number;
  credits: CreditsMeter;
}

/** Where credit movements are reported (metrics), so the domain stays free of prom-client. */
export interface CreditsMeter {
  charged(plan: AuthenticatedWorkspace['plan'], credits: number): void;
  refunded(credits: number): void;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** POST /convert: charge and create the row → publish → answer 202, or wait and answer the result. */
export async function acceptConversion(
  deps: AcceptDeps,
  workspace: AuthenticatedWorkspace,
  request: ConvertRequest,
): Promise<Answer> {
  const cost = conversionCost(workspace.plan, request.useEnhancedAi);
  const created = await chargeAndCreateConversion(deps.db, workspace.id, request, cost);
  if ('insufficient' in created) throw AppError.insufficientCredits(cost, created.available);
  deps.credits.charged(workspace.plan, cost);
  deps.logger.info({ conversionId: created.id, mode: request.webhookUrl ? 'async' : 'sync' }, 'conversion accepted');

  if (request.webhookUrl) {
    await publishJob(deps, created.id);
    return {
      status: 202,
      body: {
        id: created.id,
        status: 'pending',
        message: 'The conversion is queued. The result will be sent to the webhook URL when it is ready.',
        status_url: `/api/v1/conversions/${created.id}`,
        credits_used: cost,
        credits_remaining: created.creditsRemaining,
      },
    };
  }

  const waiting = deps.listener.waitFor(created.id);
  try {
    await publishJob(deps, created.id);
    const row = await waitUntilFinished(deps, created.id, waiting.promise);
    if (row.status === 'completed') {
      const body: Record<string, unknown> = {
        success: true,
        markdown: row.markdown ?? '',
        credits_used: cost,
        credits_remaining: created.creditsRemaining,
      };
      if (row.includeMetadata) body.metadata = row.metadata;
      if (request.optimizeTokens && row.tokenOptimization) body.token_optimization = row.tokenOptimization;
      return { status: 200, body };
    }
    throw AppError.conversionFailed(row.error ?? 'The conversion failed.');
  } finally {
    waiting.cancel();
  }
}

/** A failed publish is not lost: the row stays pending and the sweeper publishes it again. */
async function publishJob(deps: AcceptDeps, conversionId: string): Promise<void> {
  try {
    await deps.publisher.publish(conversionId);
    await markPublished(deps.db, conversionId);
  } catch (err) {
    deps.logger.warn({ conversionId, err: (err as Error).message }, 'publish failed; the sweeper will retry');
  }
}

async function waitUntilFinished(deps: AcceptDeps, conversionId: string, announced: Promise<void>) {
  const deadline = Date.now() + deps.syncTimeoutMs;
  for (;;) {
    const row = await findConversion(deps.db, conversionId);
    if (!row) throw new Error(`conversion ${conversionId} disappeared`);
    if (row.status === 'completed' || row.status === 'failed') return row;
    const left = deadline - Date.now();
    if (left <= 0) break;
    await Promise.race([announced, delay(Math.min(left, deps.syncPollMs))]);
  }
  const seconds = Math.round(deps.syncTimeoutMs / 1000);
  const failed = await failConversion(
    deps.db,
    conversionId,
    `The conversion did not finish within ${seconds} seconds.`,
  );
  if (failed) deps.credits.refunded(failed.refunded);
  deps.logger.warn({ conversionId }, 'sync conversion timed out');
  // If a result landed in the meantime, the finished row wins.
  const row = await findConversion(deps.db, conversionId);
  return row!;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
