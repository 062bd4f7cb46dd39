export { toolDefinitions, TOOL_NAMES, GUIDES } from './definitions.js';
export type {
  AnthropicCustomTool,
  AnthropicTextEditorTool,
  AnthropicTool,
  JsonSchema,
  JsonSchemaTool,
  McpTool,
  ObjectSchema,
  OpenAIResponsesTool,
  OpenAITool,
  ToolOf,
  ToolDefinition,
  ToolDefinitions,
  ToolDefinitionsOptions,
  ToolFormat,
  Toolset,
} from './definitions.js';
export { createToolRunner, formatApplyReport, runTool } from './runner.js';
export type {
  FileHost,
  RunOptions,
  ToolResult,
  ToolRunner,
  ToolRunnerOptions,
  WriteEvent,
} from './runner.js';
