export { readConfig, ConfigError, type McpConfig } from './config';
export { readAllowedFile, FileAccessError, MAX_FILE_BYTES } from './domain/allowed-file';
export { convertFile, convertUrl, type ConversionArguments, type ToolContext } from './domain/convert-tools';
export { createMcpServer } from './entry-points/mcp-server';
