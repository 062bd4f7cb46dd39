// Type test (compiled, never run): editkit's tool definitions are
// assignable, under strict TypeScript, to the tool types of the `openai`
// SDK (Chat Completions and Responses), `@anthropic-ai/sdk` and the MCP
// SDK, and a tool-call loop for each compiles against editkit's runner.
// `tsc -p tests/types` (run by tests/package) fails when they drift.

import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  createNodeFileHost,
  createToolRunner,
  toolDefinitions,
  type AiSdkTools,
  type ToolResult,
  type ToolRunner,
} from 'editkit';

const runner: ToolRunner = createToolRunner({ files: createNodeFileHost({ root: '.' }) });

// ---- the definitions themselves -------------------------------------------
export const chatTools: ChatCompletionTool[] = toolDefinitions({ format: 'openai' }).tools;
export const responsesTools: FunctionTool[] = toolDefinitions({ format: 'openai-responses' }).tools;
export const anthropicTools: Anthropic.ToolUnion[] = toolDefinitions({ format: 'anthropic' }).tools;
// The text editor as a custom tool: every item is then a plain `Tool`.
export const anthropicCustomTools: Anthropic.Tool[] = toolDefinitions({
  format: 'anthropic',
  anthropicTextEditor: 'custom',
}).tools.filter((t) => 'input_schema' in t);
export const mcpTools: McpTool[] = toolDefinitions({ format: 'mcp' }).tools;
// The runner keeps the format in its return type too.
export const runnerChatTools: ChatCompletionTool[] = runner.definitions({ format: 'openai' }).tools;
export const runnerAnthropicTools: Anthropic.ToolUnion[] = runner.definitions({
  format: 'anthropic',
}).tools;
export const runnerMcpTools: McpTool[] = runner.definitions({ format: 'mcp' }).tools;
// ReturnType of the function is the union of every format, never one format by
// accident: the list formats' items, and the ai-sdk record.
type AnyDefinitions = ReturnType<typeof toolDefinitions>;
export const anyTool: Exclude<AnyDefinitions['tools'], AiSdkTools>[number] = chatTools[0] as never;
export const anyAiSdkTools: Extract<AnyDefinitions['tools'], AiSdkTools> = toolDefinitions({
  format: 'ai-sdk',
}).tools;

// ---- OpenAI Chat Completions ----------------------------------------------
export async function chatLoop(client: OpenAI, prompt: string): Promise<string | null> {
  const { tools, guide } = runner.definitions({ format: 'openai' });
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: guide },
    { role: 'user', content: prompt },
  ];
  for (;;) {
    const completion = await client.chat.completions.create({ model: 'gpt-4.1', messages, tools });
    const message = completion.choices[0]?.message;
    if (!message) return null;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      // `arguments` is the raw JSON string: the runner parses and checks it.
      const result: ToolResult = await runner.runDetailed(
        call.function.name,
        call.function.arguments,
      );
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.text });
    }
  }
}

// ---- OpenAI Responses -----------------------------------------------------
export async function responsesLoop(client: OpenAI, prompt: string): Promise<string> {
  const { tools, guide } = runner.definitions({ format: 'openai-responses' });
  const input: ResponseInputItem[] = [{ role: 'user', content: prompt }];
  for (;;) {
    const response = await client.responses.create({
      model: 'gpt-4.1',
      instructions: guide,
      input,
      tools,
    });
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (!calls.length) return response.output_text;
    for (const call of calls) {
      const result = await runner.runDetailed(call.name, call.arguments);
      input.push(call, {
        type: 'function_call_output',
        call_id: call.call_id,
        output: result.text,
      });
    }
  }
}

// ---- Anthropic Messages ---------------------------------------------------
export async function anthropicLoop(client: Anthropic, prompt: string): Promise<string> {
  const { tools, guide } = runner.definitions({ format: 'anthropic' });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: prompt }];
  for (;;) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: guide,
      messages,
      tools,
    });
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block) => block.type === 'tool_use');
    if (!uses.length)
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) {
      const result = await runner.runDetailed(use.name, use.input);
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: result.text,
        is_error: result.isError,
      });
    }
    messages.push({ role: 'user', content: results });
  }
}

// ---- MCP server (what editkit-mcp does, with the SDK) ----------------------
export function mcpServer(): Server {
  const server = new Server(
    { name: 'my-editkit', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: runner.definitions({ format: 'mcp' }).tools,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const result = await runner.runDetailed(request.params.name, request.params.arguments);
    return { content: [{ type: 'text', text: result.text }], isError: result.isError };
  });
  return server;
}
