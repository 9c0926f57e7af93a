/** How the Markdown writer lays out what it writes (what it writes is decided by the model and filters). */
export interface WriterOptions {
  /**
   * Tables without cell padding (`|a|b|`, `|-|-|`): the same table in fewer tokens, for the API's
   * `optimize_tokens` (the model side of it is filters/optimize-tokens.ts).
   */
  compactTables?: boolean;
}
