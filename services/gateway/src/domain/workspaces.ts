import type { Db } from '@markwright/db';
import { isPlanName, type PlanName } from './plans';
import { generateToken, hashToken, isWellFormedToken } from './tokens';
import {
  findWorkspaceByTokenHash,
  findWorkspaceWithLedger,
  grantCredits as addCredits,
  insertToken,
  insertWorkspace,
  revokeTokenHash,
} from '../data-access/workspace-repository';

export interface AuthenticatedWorkspace {
  id: string;
  plan: PlanName;
}

/** The workspace a bearer token belongs to; null for a malformed, unknown or revoked token. */
export async function authenticateToken(db: Db, token: string): Promise<AuthenticatedWorkspace | null> {
  if (!isWellFormedToken(token)) return null;
  const row = await findWorkspaceByTokenHash(db, hashToken(token));
  if (!row || !isPlanName(row.plan)) return null;
  return { id: row.id, plan: row.plan };
}

/** A workspace with its first token (shown once; only its hash is stored) and its opening credits. */
export async function createWorkspace(
  db: Db,
  input: { name: string; plan: PlanName; credits: number },
): Promise<{ workspaceId: string; token: string }> {
  const token = generateToken();
  const workspaceId = await insertWorkspace(db, { ...input, tokenHash: hashToken(token) });
  return { workspaceId, token };
}

/** A new token for the workspace; null when it does not exist. */
export async function createToken(db: Db, workspaceId: string): Promise<string | null> {
  const token = generateToken();
  return (await insertToken(db, workspaceId, hashToken(token))) ? token : null;
}

/** Revokes a token (again is fine); false when no such token was ever issued. */
export function revokeToken(db: Db, token: string): Promise<boolean> {
  return revokeTokenHash(db, hashToken(token));
}

/** Adds credits with a ledger row; the new balance, or null when the workspace does not exist. */
export function grantCredits(db: Db, workspaceId: string, amount: number): Promise<number | null> {
  return addCredits(db, workspaceId, amount);
}

export interface WorkspaceStatement {
  id: string;
  plan: string;
  creditBalance: number;
  transactions: { type: string; amount: number; conversionId: string | null; createdAt: Date }[];
}

/** The workspace, its balance and its ledger in order; null when it does not exist. */
export function showWorkspace(db: Db, workspaceId: string): Promise<WorkspaceStatement | null> {
  return findWorkspaceWithLedger(db, workspaceId);
}
