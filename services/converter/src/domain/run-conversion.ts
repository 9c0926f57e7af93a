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
  if (!job.upload) {
    await failConversion(deps.db, conversionId, 'The uploaded file is no longer available.');
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
      await completeConversion(deps.db, conversionId, {
        markdown: result.markdown,
        metadata: result.metadata,
        tokenOptimization: result.tokenOptimization ?? null,
      });
      deps.logger.info({ conversionId, ms: Date.now() - started }, 'conversion completed');
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      await failConversion(deps.db, conversionId, err.message);
      deps.logger.info({ conversionId, code: err.code, ms: Date.now() - started }, 'conversion failed');
    }
  }
  await deps.announce(conversionId);
}

/** A job that crashed its workers too often reached the dead-letter queue: fail it for good and refund. */
export async function failDeadJob(deps: RunDeps, conversionId: string): Promise<void> {
  await failConversion(
    deps.db,
    conversionId,
    'The file could not be processed: the conversion stopped its worker repeatedly.',
  );
  await deps.announce(conversionId);
}
