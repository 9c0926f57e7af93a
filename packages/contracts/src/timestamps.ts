/** RFC 3339 in UTC with an explicit offset, e.g. 2026-11-22T14:43:44.123+00:00 (decisions.md). */
export function formatTimestamp(date: Date): string;
export function formatTimestamp(date: Date | null): string | null;
export function formatTimestamp(date: Date | null): string | null {
  return date ? date.toISOString().replace('Z', '+00:00') : null;
}
