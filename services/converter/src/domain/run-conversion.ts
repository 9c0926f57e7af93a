import { completeConversion, failConversion, markProcessing, type Db } from '@markwright/db';
import {
  ConversionError,
  convertIsolated,
  type IsolationLimits,
  type ModelEndpoint,
  type TranscriptionEndpoint,
} from '@markwright/conversion';
import type { Logger } from '@markwright/config';

export interface RunDeps {
  db: Db;
  logger: Logger;
  limits: IsolationLimits;
  /** Enhanced mode's model pass, when an endpoint is configured. */
  modelEndpoint?: ModelEndpoint;
  /** Enhanced mode's speech-to-text endpoint, when one is configured. */
  transcriptionEndpoint?: TranscriptionEndpoint;
  announce: (conversionId: string) => Promise<void>;
  observe: ConversionObserver;
}

/** Where a conversion's outcome is reported (metrics), so the domain stays free of prom-client. */
export interface ConversionObserver {
  /** `seconds` is the conversion's own time; absent when nothing was converted. */
  finished(extension: string, status: 'completed' | 'failed', seconds?: number): void;
  refunded(credits: number): void;
}

/**
 * One job: mark processing → convert in isolation → store the result or fail and refund →
 * announce. Redelivered jobs of finished conversions are only announced again.
 */
export async function runConversion(deps: RunDeps, conversionId: string): Promise<void> {
  const claimed = await markProcessing(deps.db, conversionId);
  if (!claimed) {
    const exists = await deps.db.conversion.findUnique({ where: { id: conversionId }, select: { status: true } });
    if (exists) await deps.announce(conversionId);
    return;
  }
  const job = await deps.db.conversion.findUniqueOrThrow({
    where: { id: conversionId },
    select: { extension: true, originalFilename: true, useEnhancedAi: true, optimizeTokens: true, upload: true },
  });
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  if (!job.upload) {
    await fail(deps, conversionId, job.extension, 'The uploaded file is no longer available.');
  } else {
    try {
      const result = await convertIsolated(
        Buffer.from(job.upload.bytes),
        job.extension,
        {
          enhanced: job.useEnhancedAi,
          optimizeTokens: job.optimizeTokens,
          filename: job.originalFilename,
          modelEndpoint: job.useEnhancedAi ? deps.modelEndpoint : undefined,
          transcriptionEndpoint: job.useEnhancedAi ? deps.transcriptionEndpoint : undefined,
        },
        deps.limits,
      );
      const took = seconds();
      const stored = await completeConversion(deps.db, conversionId, {
        markdown: result.markdown,
        metadata: result.metadata,
        tokenOptimization: result.tokenOptimization ?? null,
      });
      if (stored) deps.observe.finished(job.extension, 'completed', took);
      deps.logger.info({ conversionId, ms: Date.now() - started }, 'conversion completed');
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      await fail(deps, conversionId, job.extension, err.message, seconds());
      deps.logger.info({ conversionId, code: err.code, ms: Date.now() - started }, 'conversion failed');
    }
  }
  await deps.announce(conversionId);
}

/** A job that crashed its workers too often reached the dead-letter queue: fail it for good and refund. */
export async function failDeadJob(deps: RunDeps, conversionId: string): Promise<void> {
  const job = await deps.db.conversion.findUnique({ where: { id: conversionId }, select: { extension: true } });
  await fail(
    deps,
    conversionId,
    job?.extension ?? 'unknown',
    'The file could not be processed: the conversion stopped its worker repeatedly.',
  );
  await deps.announce(conversionId);
}

async function fail(
  deps: RunDeps,
  conversionId: string,
  extension: string,
  error: string,
  seconds?: number,
): Promise<void> {
  const outcome = await failConversion(deps.db, conversionId, error);
  if (!outcome) return;
  deps.observe.finished(extension, 'failed', seconds);
  deps.observe.refunded(outcome.refunded);
}
