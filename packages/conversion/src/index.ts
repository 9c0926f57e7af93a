export * from './types';
export * from './registry';
export * from './convert';
export * from './isolation/isolated-convert';
export { countTokens, optimizeTokens, type TokenOptimization } from './tokens/optimize';
export type { Block, ListItem } from './markdown/model';
export { renderMarkdown } from './markdown/writer';
export { refineWithModel, type ModelEndpoint } from './enhanced/model-pass';
export { transcribeWithEndpoint, type TranscriptionEndpoint } from './enhanced/transcription-endpoint';
