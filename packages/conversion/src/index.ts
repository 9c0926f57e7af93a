export * from './types';
export type { Reader, ReadResult } from './readers/reader';
export {
  FORMATS,
  SUPPORTED_EXTENSIONS,
  isSupportedExtension,
  isTextExtension,
  acceptsPageRange,
  formatOf,
  readerFor,
  readerForContent,
  type FormatLine,
  type FormatName,
  type SupportedExtension,
} from './formats/table';
export * from './convert';
export { sniffContent as sniffFormat } from './formats/table';
export * from './isolation/isolated-convert';
export { convertSmallTextInThread, IN_THREAD_TEXT_MAX_BYTES } from './isolation/in-thread';
export { countTokens, type TokenOptimization } from './tokens/count';
export type { Block, Inline, InlineContent, ListItem, Note } from './document/model';
export { renderMarkdown, type WriterOptions } from './writers/markdown';
export { optimizeTokens } from './filters/optimize-tokens';
export { refineWithModel, type ModelEndpoint } from './enhanced/model-pass';
export { transcribeWithEndpoint, type TranscriptionEndpoint } from './enhanced/transcription-endpoint';
export { countPages, PDF_PAGE_LIMIT } from './page-count';
