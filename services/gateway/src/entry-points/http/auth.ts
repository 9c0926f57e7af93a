import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '@markwright/db';
import { AppError } from '../../domain/app-error';
import { authenticateToken, type AuthenticatedWorkspace } from '../../domain/workspaces';

const WORKSPACE = Symbol('workspace');
type WithWorkspace = Request & { [WORKSPACE]?: AuthenticatedWorkspace };

/** Bearer auth: missing, malformed, unknown and revoked tokens all answer the same 401. */
export function authenticate(db: Db): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    // The scheme is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are the same.
    const match = /^Bearer +(\S+)$/i.exec(req.get('authorization') ?? '');
    const token = match?.[1];
    if (!token) return next(AppError.unauthenticated());
    authenticateToken(db, token).then((workspace) => {
      if (!workspace) return next(AppError.unauthenticated());
      (req as WithWorkspace)[WORKSPACE] = workspace;
      next();
    }, next);
  };
}

export function workspaceOf(req: Request): AuthenticatedWorkspace {
  const workspace = (req as WithWorkspace)[WORKSPACE];
  if (!workspace) throw AppError.unauthenticated();
  return workspace;
}
