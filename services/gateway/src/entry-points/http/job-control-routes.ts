import type { RequestHandler, Router } from 'express';
import { cancelConversion } from '../../domain/cancel-conversion';
import { deleteConversion } from '../../domain/delete-conversion';
import type { JobControlDeps } from '../../domain/job-control';
import { workspaceOf } from './auth';

/** POST /conversions/{id}/cancel (E7) and DELETE /conversions/{id} (E8), behind the "other endpoints" rate limit. */
export function addJobControlRoutes(router: Router, deps: JobControlDeps, rateLimit: RequestHandler): void {
  router.post('/conversions/:id/cancel', rateLimit, async (req, res) => {
    res.json(await cancelConversion({ ...deps, logger: req.log }, workspaceOf(req).id, String(req.params.id)));
  });
  router.delete('/conversions/:id', rateLimit, async (req, res) => {
    await deleteConversion({ ...deps, logger: req.log }, workspaceOf(req).id, String(req.params.id));
    res.status(204).end();
  });
}
