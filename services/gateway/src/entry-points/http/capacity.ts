import type { RequestHandler, Response } from 'express';
import type { JobAdmission, QueuePlace } from '../../domain/job-admission';
import type { AcceptDeps } from '../../domain/accept-conversion';

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

type Publisher = AcceptDeps['publisher'];

/**
 * The publisher for this request: a published job turns its held place into a published one (the
 * broker counts it from its next reading); a failed publish gives the place up (nothing is queued).
 */
export function publisherHoldingPlace(res: Response, publisher: Publisher): Publisher {
  const place = res.locals.queuePlace as QueuePlace | undefined;
  return {
    async publish(conversionId, fields) {
      try {
        await publisher.publish(conversionId, fields);
        place?.published();
      } finally {
        place?.release();
      }
    },
  };
}
