/** A UTF-16 surrogate without its partner: not a character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store (decisions.md): NUL characters are removed (text and jsonb refuse
 * them, and they carry nothing in Markdown), lone surrogates become U+FFFD as any UTF-8 encoder
 * would write them. Applied where results are written, whatever reader produced them.
 */
export function storableText(text: string): string {
  return text.replace(/\u0000/g, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** storableText on every string inside a JSON value (metadata, token figures). */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v) => storableJson(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [storableText(k), storableJson(v)]),
    ) as T;
  }
  return value;
}
