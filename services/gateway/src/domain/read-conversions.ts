import type { Db } from '@markwright/db';
import type { ConversionDetail, ConversionPage } from '@markwright/contracts';
import { AppError } from './app-error';
import { renderConversionDetail, renderConversionListItem } from './conversion-view';
import type { ListRequest } from './list-request';
import { renderPaginator } from './paginator';
import { findConversionForWorkspace, listConversions } from '../data-access/conversion-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names no conversion (404, never 422). */
export const isConversionId = (id: string): boolean => UUID.test(id);

/** GET /conversions/{id}: only the caller's workspace's conversions exist; a malformed id is not found. */
export async function getConversion(db: Db, workspaceId: string, id: string): Promise<ConversionDetail> {
  if (!UUID.test(id)) throw AppError.notFound();
  const row = await findConversionForWorkspace(db, workspaceId, id.toLowerCase());
  if (!row) throw AppError.notFound();
  return renderConversionDetail(row);
}

/** GET /conversions: one page of the workspace's conversions, newest first, as the paginator. */
export async function listWorkspaceConversions(
  db: Db,
  workspaceId: string,
  query: ListRequest,
  page: { path: string; echoed: Record<string, string> },
): Promise<ConversionPage> {
  const { rows, total } = await listConversions(db, workspaceId, query);
  return renderPaginator({
    items: rows.map(renderConversionListItem),
    total,
    page: query.page,
    perPage: query.perPage,
    path: page.path,
    query: page.echoed,
  });
}
