import type { RequestHandler, Response } from 'express';
import type { JobAdmission, QueuePlace } from '../../domain/job-admission';
import type { JobPublisher } from '@markwright/contracts';

/**
 * E11: refuses POST /convert at capacity before the upload is read, so a refusal costs neither
 * side anything. An admitted request holds its place until its job is published, or until it
 * ends without one (a validation error, a 402).
 */
export function refuseAtCapacity(admission: JobAdmission): RequestHandler {
  return (_req, res, next) => {
    admission.admit().then((place) => {
      res.locals.queuePlace = place;
      res.on('close', () => place.release());
      next();
    }, next);
  };
}

/** The publisher for this request: publishing its job gives up its held place (the broker counts the job now). */
export function publisherHoldingPlace(
  res: Response,
  publisher: Pick<JobPublisher, 'publish'>,
): Pick<JobPublisher, 'publish'> {
  const place = res.locals.queuePlace as QueuePlace | undefined;
  return {
    async publish(conversionId) {
      try {
        await publisher.publish(conversionId);
      } finally {
        place?.release();
      }
    },
  };
}
