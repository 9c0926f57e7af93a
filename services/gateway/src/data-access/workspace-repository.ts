import { type Db, preparedQuery, uuidv7 } from '@markwright/db';
import type { PlanName } from '../domain/plans';
import { generateToken, hashToken } from '../domain/tokens';

export interface AuthenticatedWorkspace {
  id: string;
  plan: PlanName;
}

/**
 * One prepared statement per request (Prisma's nested select would be two), read on every
 * request rather than cached: a revoked token answers 401 from the next request on.
 */
export async function findWorkspaceByToken(db: Db, token: string): Promise<AuthenticatedWorkspace | null> {
  const rows = await preparedQuery<{ id: string; plan: string }>(
    db,
    'mw_workspace_by_token',
    `SELECT w.id::text, w.plan FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id
     WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
    [hashToken(token)],
  );
  const row = rows[0];
  return row ? { id: row.id, plan: row.plan as PlanName } : null;
}

export async function createWorkspace(
  db: Db,
  input: { name: string; plan: PlanName; credits: number },
): Promise<{ workspaceId: string; token: string }> {
  const workspaceId = uuidv7();
  const token = generateToken();
  await db.$transaction(async (tx) => {
    await tx.workspace.create({
      data: { id: workspaceId, name: input.name, plan: input.plan, creditBalance: input.credits },
    });
    await tx.apiToken.create({ data: { id: uuidv7(), workspaceId, tokenHash: hashToken(token) } });
    if (input.credits > 0) {
      await tx.creditTransaction.create({ data: { id: uuidv7(), workspaceId, type: 'grant', amount: input.credits } });
    }
  });
  return { workspaceId, token };
}

export async function createToken(db: Db, workspaceId: string): Promise<string | null> {
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) return null;
  const token = generateToken();
  await db.apiToken.create({ data: { id: uuidv7(), workspaceId, tokenHash: hashToken(token) } });
  return token;
}

export async function revokeToken(db: Db, token: string): Promise<boolean> {
  const updated = await db.apiToken.updateMany({
    where: { tokenHash: hashToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (updated.count > 0) return true;
  return (await db.apiToken.count({ where: { tokenHash: hashToken(token) } })) > 0;
}

export async function grantCredits(db: Db, workspaceId: string, amount: number): Promise<number | null> {
  return db.$transaction(async (tx) => {
    const found = await tx.workspace.findUnique({ where: { id: workspaceId } });
    if (!found) return null;
    const updated = await tx.workspace.update({
      where: { id: workspaceId },
      data: { creditBalance: { increment: amount } },
    });
    await tx.creditTransaction.create({ data: { id: uuidv7(), workspaceId, type: 'grant', amount } });
    return updated.creditBalance;
  });
}

export async function showWorkspace(db: Db, workspaceId: string) {
  return db.workspace.findUnique({
    where: { id: workspaceId },
    include: { transactions: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
}
