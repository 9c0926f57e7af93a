import type { ConversionDetailRow, ConversionListRow } from '../data-access/conversion-repository';
import { structureFields } from './conversion-answers';
import {
  formatTimestamp,
  type ConversionDetail,
  type ConversionListItem,
  type ConversionStatus,
  type DocumentMetadata,
  WEBHOOK_MAX_ATTEMPTS,
} from '@markwright/contracts';

/**
 * webhook_delivered / can_retry_webhook as decisions.md defines them, from the attempt records of
 * the current series (a redelivery, E10, starts a new one and is judged on its own attempts).
 */
export function webhookState(row: Pick<ConversionDetailRow, 'webhookUrl' | 'webhookAttempts' | 'webhookSeries'>) {
  const attempts = row.webhookAttempts.filter((a) => a.series === row.webhookSeries);
  const delivered = attempts.some((a) => a.succeeded);
  const canRetry = row.webhookUrl !== null && !delivered && attempts.length < WEBHOOK_MAX_ATTEMPTS;
  return { webhook_delivered: delivered, can_retry_webhook: canRetry };
}

/** Finished rows always have completed_at (processing ones started_at); the creation time stands in for a missing one. */
const finishedAt = (row: ConversionDetailRow): string => formatTimestamp(row.completedAt ?? row.createdAt);

/** The detail response: fields present by status exactly as the contract's presence table says. */
export function renderConversionDetail(row: ConversionDetailRow): ConversionDetail {
  const head = <S extends ConversionStatus>(status: S) => ({
    id: row.id,
    status,
    original_filename: row.originalFilename,
    created_at: formatTimestamp(row.createdAt),
  });
  const webhook = webhookState(row);
  switch (row.status as ConversionStatus) {
    case 'processing':
      return { ...head('processing'), started_at: formatTimestamp(row.startedAt ?? row.createdAt), ...webhook };
    case 'completed':
      return {
        ...head('completed'),
        markdown: row.markdown ?? '',
        ...(row.includeMetadata ? { metadata: row.metadata as unknown as DocumentMetadata } : {}),
        completed_at: finishedAt(row),
        ...webhook,
        ...structureFields(row, row),
      };
    case 'failed':
      return {
        ...head('failed'),
        error: row.error ?? 'The conversion failed.',
        completed_at: finishedAt(row),
        ...webhook,
      };
    default:
      return { ...head('pending'), ...webhook };
  }
}

export function renderConversionListItem(row: ConversionListRow): ConversionListItem {
  return {
    id: row.id,
    status: row.status as ConversionStatus,
    original_filename: row.originalFilename,
    extension: row.extension,
    file_size_bytes: row.fileSizeBytes,
    use_enhanced_ai: row.useEnhancedAi,
    created_at: formatTimestamp(row.createdAt),
    started_at: formatTimestamp(row.startedAt),
    completed_at: formatTimestamp(row.completedAt),
  };
}
