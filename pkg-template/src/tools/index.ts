export { toolDefinitions, TOOL_NAMES, GUIDES } from './definitions.js';
export type {
  AiSdkInputSchema,
  AiSdkTool,
  AiSdkToolDefinitions,
  AiSdkTools,
  AnthropicCustomTool,
  AnthropicTextEditorTool,
  AnthropicTool,
  JsonSchema,
  JsonSchemaTool,
  LangChainTool,
  McpTool,
  ObjectSchema,
  OpenAIResponsesTool,
  OpenAITool,
  ToolOf,
  ToolDefinition,
  ToolDefinitions,
  ToolDefinitionsOf,
  ToolDefinitionsOptions,
  ToolDescription,
  ToolFormat,
  ToolName,
  Toolset,
} from './definitions.js';
export type { McpOutputSchema, McpToolAnnotations } from './mcp-meta.js';
export { createToolRegistry, createToolRunner, runTool } from './runner.js';
export type { ToolRunner } from './runner.js';
export { formatApplyReport } from './impl/apply-block-diff.js';
export { TOOL_MODULES } from './impl/index.js';
export type { ToolContext, ToolModule } from './impl/context.js';
export type {
  RegisteredTool,
  ToolRegistry,
  ToolRegistryOptions,
  ToolRegistryView,
} from './registry.js';
export type {
  FileHost,
  RunOptions,
  ToolFailure,
  ToolResult,
  ToolRunnerOptions,
  ToolSuccess,
  WriteEvent,
} from './types.js';
