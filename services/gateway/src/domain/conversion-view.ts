import type { ConversionDetailRow, ConversionListRow } from '../data-access/conversion-repository';
import { formatTimestamp, WEBHOOK_MAX_ATTEMPTS } from '@markwright/contracts';

/** webhook_delivered / can_retry_webhook as decisions.md defines them, from the attempt records. */
export function webhookState(row: Pick<ConversionDetailRow, 'webhookUrl' | 'webhookAttempts'>) {
  const delivered = row.webhookAttempts.some((a) => a.succeeded);
  const canRetry = row.webhookUrl !== null && !delivered && row.webhookAttempts.length < WEBHOOK_MAX_ATTEMPTS;
  return { webhook_delivered: delivered, can_retry_webhook: canRetry };
}

/** The detail response: fields present by status exactly as the contract's presence table says. */
export function renderConversionDetail(row: ConversionDetailRow): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: row.id,
    status: row.status,
    original_filename: row.originalFilename,
    created_at: formatTimestamp(row.createdAt),
  };
  if (row.status === 'processing') body.started_at = formatTimestamp(row.startedAt);
  if (row.status === 'completed') {
    body.markdown = row.markdown ?? '';
    if (row.includeMetadata) body.metadata = row.metadata;
    body.completed_at = formatTimestamp(row.completedAt);
  }
  if (row.status === 'failed') {
    body.error = row.error ?? 'The conversion failed.';
    body.completed_at = formatTimestamp(row.completedAt);
  }
  return { ...body, ...webhookState(row) };
}

export function renderConversionListItem(row: ConversionListRow): Record<string, unknown> {
  return {
    id: row.id,
    status: row.status,
    original_filename: row.originalFilename,
    extension: row.extension,
    file_size_bytes: row.fileSizeBytes,
    use_enhanced_ai: row.useEnhancedAi,
    created_at: formatTimestamp(row.createdAt),
    started_at: formatTimestamp(row.startedAt),
    completed_at: formatTimestamp(row.completedAt),
  };
}
