export { toolDefinitions, TOOL_NAMES, GUIDES } from './definitions.js';
export type {
  AnthropicTool,
  JsonSchema,
  JsonSchemaTool,
  OpenAITool,
  ToolDefinition,
  ToolDefinitions,
  ToolDefinitionsOptions,
  ToolFormat,
  Toolset,
} from './definitions.js';
export { createToolRunner, formatApplyReport, runTool } from './runner.js';
export type { FileHost, ToolRunner, ToolRunnerOptions } from './runner.js';
