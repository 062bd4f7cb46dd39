// Agent tool definitions: names, descriptions (en/zh) and JSON Schemas for
// every editkit tool, in the shapes OpenAI-style and Anthropic-style tool
// calling accept. Optional fields also accept "" and 0 as "unset", for
// providers that make every field required.

import { toolAnnotations, toolOutputSchema, toolTitle } from './mcp-meta.js';
import type { McpOutputSchema, McpToolAnnotations } from './mcp-meta.js';
import { jsError, readOptions } from '../errors.js';
import type { Lang } from '../types.js';
import { argProblemText } from './messages.js';
import { checkArgs, parseArgs } from './validate.js';
import type { ArgProblem } from './validate.js';
import { BLOCK_ID_SCHEMA_PATTERN, TOOL_NAMES } from './spec.js';
import type { I18n, JsonSchema, ObjectSchema, ParamSpec, Spec, ToolName, Toolset } from './spec.js';

export { BLOCK_ID_SCHEMA_PATTERN, TOOL_NAMES };
export type { JsonSchema, ObjectSchema, ParamSpec, Spec, ToolName, Toolset };

/**
 * `openai`: Chat Completions tools; `openai-responses`: the Responses API's
 * function tools; `anthropic`: Messages API tools; `mcp`: MCP `Tool`s;
 * `json-schema`: `{ name, description, parameters }`; `ai-sdk`: the Vercel
 * AI SDK's `tools` record (`{ [name]: { description, inputSchema } }`);
 * `langchain`: the OpenAI-function objects LangChain's `bindTools` takes.
 */
export type ToolFormat =
  'openai' | 'openai-responses' | 'anthropic' | 'mcp' | 'json-schema' | 'ai-sdk' | 'langchain';

export type JsonSchemaTool = {
  name: ToolName;
  description: string;
  parameters: ObjectSchema;
};
/** Assignable to the `openai` SDK's `ChatCompletionTool`. */
export type OpenAITool = {
  type: 'function';
  function: { name: ToolName; description: string; parameters: ObjectSchema };
};
/**
 * An item for LangChain's `model.bindTools(tools)`: the OpenAI function
 * form (`@langchain/core`'s `ToolDefinition`), which every LangChain chat
 * model accepts.
 */
export type LangChainTool = OpenAITool;
/** Assignable to the `openai` SDK's Responses API `FunctionTool`. */
export type OpenAIResponsesTool = {
  type: 'function';
  name: ToolName;
  description: string;
  parameters: ObjectSchema;
  /** Strict mode needs every field required; editkit's tools have optional fields. */
  strict: false;
};
/** Assignable to `@anthropic-ai/sdk`'s `Tool` (a custom tool). */
export type AnthropicCustomTool = {
  name: ToolName;
  description: string;
  input_schema: ObjectSchema;
};
/**
 * Anthropic's own text editor tool (`@anthropic-ai/sdk`'s
 * `ToolTextEditor20250728`): Claude knows its commands and arguments from
 * training, so it has no schema here; its calls are run by the same
 * `str_replace_based_edit_tool` of the runner.
 */
export type AnthropicTextEditorTool = {
  type: 'text_editor_20250728';
  name: 'str_replace_based_edit_tool';
};
/** An item of `tools` for `@anthropic-ai/sdk`'s `messages.create` (`ToolUnion`). */
export type AnthropicTool = AnthropicCustomTool | AnthropicTextEditorTool;
/** Assignable to the MCP SDK's `Tool`. */
export type McpTool = {
  name: ToolName;
  /** A human-readable name (en / zh). */
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /** How the tool behaves: read-only, additive or destructive, idempotent. */
  annotations: McpToolAnnotations;
  /** The schema of `structuredContent`, for the tools whose result is data. */
  outputSchema?: McpOutputSchema;
};

/**
 * A tool's input schema as the Vercel AI SDK reads it: a Standard JSON
 * Schema (https://standardschema.dev) — `~standard.jsonSchema.input()` is
 * the tool's JSON Schema, `~standard.validate` checks a call's arguments
 * as the runner does. AI SDK 6 and later take it as `inputSchema` as it
 * is; with AI SDK 5 wrap the plain schema: `jsonSchema(tool.inputSchema.jsonSchema)`.
 */
export type AiSdkInputSchema = {
  /** The tool's parameters as a plain JSON Schema. */
  readonly jsonSchema: ObjectSchema;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'editkit';
    readonly validate: (value: unknown) =>
      | { readonly value: Record<string, unknown>; readonly issues?: undefined }
      | {
          readonly issues: ReadonlyArray<{
            readonly message: string;
            readonly path?: ReadonlyArray<PropertyKey>;
          }>;
        };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => ObjectSchema;
      readonly output: (options: { readonly target: string }) => ObjectSchema;
    };
  };
};
/** One tool of the Vercel AI SDK's `tools` record (no `execute`: run the calls with the runner). */
export type AiSdkTool = {
  description: string;
  inputSchema: AiSdkInputSchema;
};
/** The Vercel AI SDK's `tools` parameter: each tool under its name. */
export type AiSdkTools = { [N in ToolName]?: AiSdkTool };

export type ToolDefinition =
  | JsonSchemaTool
  | OpenAITool
  | OpenAIResponsesTool
  | AnthropicTool
  | McpTool
  | LangChainTool
  | AiSdkTool;

/** The tool shape of `format` (for `ai-sdk`: one value of the `tools` record). */
export type ToolOf<F extends ToolFormat> = F extends 'openai'
  ? OpenAITool
  : F extends 'openai-responses'
    ? OpenAIResponsesTool
    : F extends 'anthropic'
      ? AnthropicTool
      : F extends 'mcp'
        ? McpTool
        : F extends 'langchain'
          ? LangChainTool
          : F extends 'ai-sdk'
            ? AiSdkTool
            : JsonSchemaTool;

/** What `toolDefinitions({ format })` gives: a list of tools, or for `ai-sdk` a record of them by name. */
export type ToolDefinitionsOf<F extends ToolFormat> = F extends 'ai-sdk'
  ? AiSdkToolDefinitions
  : ToolDefinitions<ToolOf<F>>;

export interface ToolDefinitionsOptions<F extends ToolFormat = ToolFormat> {
  lang?: Lang;
  /** Default `json-schema` (`{ name, description, parameters }`). */
  format?: F;
  /** Default: both toolsets. */
  toolsets?: Toolset[];
  /**
   * `anthropic` only: `str_replace_based_edit_tool` as Anthropic's native
   * text editor tool (`{ type: 'text_editor_20250728', name }`, the
   * default: the commands Claude was trained on) or as a custom tool with
   * editkit's schema (`'custom'`).
   */
  anthropicTextEditor?: 'native' | 'custom';
}

export interface ToolDefinitions<T extends ToolDefinition = ToolDefinition> {
  tools: T[];
  /** The toolset guide(s) for the system prompt. */
  guide: string;
}

/** `toolDefinitions({ format: 'ai-sdk' })`: pass `tools` to `generateText` / `streamText`. */
export interface AiSdkToolDefinitions {
  tools: AiSdkTools;
  /** The toolset guide(s) for the system prompt. */
  guide: string;
}

/** One parameter of a tool. */
const ID = BLOCK_ID_SCHEMA_PATTERN;
const str = (extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'string', ...extra });
const bool = (): JsonSchema => ({ type: 'boolean' });

const SPECS: Spec[] = [
  // ---- SiYuan ------------------------------------------------------------
  {
    name: 'getBlockInfo',
    toolset: 'siyuan',
    description: {
      en: 'Metadata of SiYuan blocks without their full content: type, path, content and markdown length with a short preview, child count for containers, outline (TOC) for documents, and the breadcrumb. Pass several ids (separated by commas, or as a list) to query them in one call.',
      zh: '查询思源块的元信息而不加载完整内容：类型、路径、content 与 markdown 长度及预览、容器的子块数、文档的标题大纲、面包屑。多个 ID（用逗号分隔，或写成列表）一次查询。',
    },
    params: {
      ids: {
        schema: { anyOf: [str(), { type: 'array', items: str(), minItems: 1 }] },
        required: true,
        description: {
          en: 'One block id, several separated by commas, or a list of ids.',
          zh: '一个块 ID、以逗号分隔的多个 ID，或 ID 列表。',
        },
      },
    },
  },
  {
    name: 'getBlockContent',
    toolset: 'siyuan',
    description: {
      en: 'The markdown of a SiYuan block. A document shows its blocks; a heading shows its section. Use showId to get `@@id@@type` headers for editing with applyBlockDiff, showSubStructure to expand containers into their children, and slice to page through long documents (slice turns both on).',
      zh: '获取思源块的 markdown。文档显示其全部子块；标题显示其下属内容。编辑前用 showId 得到 `@@id@@类型` 头部供 applyBlockDiff 使用；showSubStructure 把容器展开为子块；slice 分页阅读长文档（会自动开启前两者）。',
    },
    params: {
      blockId: {
        schema: str({ pattern: ID }),
        required: true,
        description: { en: 'The block, heading or document id.', zh: '块、标题或文档的 ID。' },
      },
      showId: {
        schema: bool(),
        description: {
          en: 'Print `@@id@@type` before each block (default: the value of showSubStructure).',
          zh: '在每个块前输出 `@@id@@类型`（默认与 showSubStructure 相同）。',
        },
      },
      showSubStructure: {
        schema: bool(),
        description: {
          en: 'Expand containers (lists, quotes, superblocks) into their child blocks (default false).',
          zh: '把容器（列表、引述、超级块）展开为子块（默认 false）。',
        },
      },
      slice: {
        schema: str(),
        description: {
          en: 'Select children: `id:+N` (N blocks from id), `id:-N` (N blocks ending at id), `idA:idB`, `0:20`, `-5:`, `id:END`, `BEGIN:id`. "" = no slice.',
          zh: '选取子块：`id:+N`（从 id 起 N 个）、`id:-N`（到 id 为止 N 个）、`idA:idB`、`0:20`、`-5:`、`id:END`、`BEGIN:id`。"" 表示不切片。',
        },
      },
    },
  },
  {
    name: 'appendContent',
    toolset: 'siyuan',
    description: {
      en: "Append markdown safely: to today's daily note of a notebook, to the end of a document, or to a block (inside a container, after a heading's section, or after a leaf block). Never changes existing content.",
      zh: '安全追加 markdown：追加到笔记本的今日日记、文档末尾，或某个块（容器内末尾、标题下属内容之后、叶子块之后）。不会改动已有内容。',
    },
    params: {
      markdown: {
        schema: str(),
        required: true,
        description: { en: 'The markdown to add.', zh: '要追加的 markdown。' },
      },
      targetType: {
        schema: str({ enum: ['dailynote', 'document', 'block'] }),
        required: true,
        description: { en: 'Where to append.', zh: '追加目标类型。' },
      },
      target: {
        schema: str(),
        required: true,
        description: {
          en: 'A notebook id (dailynote), a document id or a block id.',
          zh: '笔记本 ID（dailynote）、文档 ID 或块 ID。',
        },
      },
    },
  },
  {
    name: 'createNewDoc',
    toolset: 'siyuan',
    description: {
      en: 'Create a SiYuan document next to an anchor document (siblings), inside it (children), or next to its parent (parent), optionally with initial markdown.',
      zh: '在锚点文档旁（siblings）、其内部（children）或其父文档旁（parent）创建思源文档，可带初始 markdown。',
    },
    params: {
      title: {
        schema: str(),
        required: true,
        description: {
          en: 'Document title ("/" becomes "-").',
          zh: '文档标题（"/" 会替换为 "-"）。',
        },
      },
      anchorDocumentId: {
        schema: str(),
        required: true,
        description: { en: 'An existing document id.', zh: '已有文档的 ID。' },
      },
      location: {
        schema: str({ enum: ['siblings', 'children', 'parent'] }),
        required: true,
        description: { en: 'Where, relative to the anchor.', zh: '相对锚点文档的位置。' },
      },
      markdown: {
        schema: str(),
        description: { en: 'Initial content ("" = empty).', zh: '初始内容（"" 表示空）。' },
      },
    },
  },
  {
    name: 'applyBlockDiff',
    toolset: 'siyuan',
    description: {
      en: 'Edit SiYuan blocks with a block diff: `@@<id>@@` followed by SEARCH/REPLACE pairs (content-checked), or `@@REPLACE:<id>@@`, `@@DELETE:<id>@@`, `@@BEFORE:<id>@@`, `@@AFTER:<id>@@`, `@@PREPEND:<id>@@`, `@@APPEND:<id>@@` followed by markdown. All hunks are checked before anything is written (atomic by default). Returns what was done and an undo diff. Use dryRun to preview.',
      zh: '用块 diff 编辑思源块：`@@<ID>@@` 后跟 SEARCH/REPLACE（会校验内容），或 `@@REPLACE:<ID>@@`、`@@DELETE:<ID>@@`、`@@BEFORE:<ID>@@`、`@@AFTER:<ID>@@`、`@@PREPEND:<ID>@@`、`@@APPEND:<ID>@@` 后跟 markdown。写入前校验全部 hunk（默认原子执行）。返回执行结果与 undo diff。dryRun 可预览。',
    },
    params: {
      diff: {
        schema: str(),
        required: true,
        description: { en: 'The block diff text.', zh: '块 diff 文本。' },
      },
      dryRun: {
        schema: bool(),
        description: {
          en: 'Check and show the plan without writing (default false).',
          zh: '只校验并展示计划，不写入（默认 false）。',
        },
      },
      atomic: {
        schema: bool(),
        description: {
          en: 'All or nothing (default true).',
          zh: '全部成功或全部不写（默认 true）。',
        },
      },
    },
  },
  // ---- Files -------------------------------------------------------------
  {
    name: 'read_file',
    toolset: 'files',
    description: {
      en: 'Read a text file: a YAML header (total_lines, size_bytes, shown range) then the lines, optionally numbered. Use its total_lines/size_bytes as the snapshot for overwrite_entire_file.',
      zh: '读取文本文件：先输出 YAML 头（total_lines、size_bytes、显示范围），再输出各行（可带行号）。overwrite_entire_file 的快照取自这里的 total_lines/size_bytes。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      range: {
        schema: str(),
        description: {
          en: 'Lines `N~M`, `N~`, `~M` ("" = from the start).',
          zh: '行范围 `N~M`、`N~`、`~M`（"" 表示从头）。',
        },
      },
      max_lines: {
        schema: { type: 'integer', minimum: 0 },
        description: {
          en: 'At most this many lines (0 = default 500).',
          zh: '最多显示行数（0 表示默认 500）。',
        },
      },
      show_line_numbers: {
        schema: bool(),
        description: { en: 'Prefix line numbers (default true).', zh: '输出行号（默认 true）。' },
      },
    },
  },
  {
    name: 'create_new_file',
    toolset: 'files',
    description: {
      en: 'Create a new file (refused if it exists). A missing final newline is added and reported.',
      zh: '创建新文件（已存在则拒绝）。若末尾缺少换行会补齐并说明。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      content: {
        schema: str(),
        description: {
          en: 'Initial content ("" = empty file).',
          zh: '初始内容（"" 表示空文件）。',
        },
      },
    },
  },
  {
    name: 'overwrite_entire_file',
    toolset: 'files',
    description: {
      en: 'Replace a whole existing file. Requires the snapshot you read (known_old_total_lines, known_old_total_bytes from read_file) and refuses diff/patch-looking content unless content_format says so. Prefer prepare_* + apply_file_modification for partial edits.',
      zh: '整体覆盖已有文件。必须提供读取时的快照（read_file 给出的 known_old_total_lines、known_old_total_bytes）；内容疑似 diff/patch 时除非 content_format 声明否则拒绝。局部修改请用 prepare_* + apply_file_modification。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      content: {
        schema: str(),
        required: true,
        description: { en: 'The complete new content.', zh: '完整的新内容。' },
      },
      known_old_total_lines: {
        schema: { type: 'integer', minimum: 0 },
        required: true,
        description: { en: 'total_lines from read_file.', zh: 'read_file 给出的 total_lines。' },
      },
      known_old_total_bytes: {
        schema: { type: 'integer', minimum: 0 },
        required: true,
        description: { en: 'size_bytes from read_file.', zh: 'read_file 给出的 size_bytes。' },
      },
      content_format: {
        schema: str(),
        description: {
          en: '`diff`, `patch`, `block-diff` or `search-replace` when the file really holds such text ("" = plain).',
          zh: '文件本身就是此类文本时填写 `diff`、`patch`、`block-diff` 或 `search-replace`（"" 表示普通文本）。',
        },
      },
    },
  },
  {
    name: 'prepare_file_range_edit',
    toolset: 'files',
    description: {
      en: 'Plan replacing, deleting or appending lines by range (1-based, inclusive: `N`, `N~M`, `N~`, `~M`; `N~` with N = last line + 1 appends). Returns YAML evidence, a diff and a hunk_id; nothing is written until apply_file_modification.',
      zh: '按行范围规划替换、删除或追加（从 1 开始、闭区间：`N`、`N~M`、`N~`、`~M`；N 为末行+1 时 `N~` 表示追加）。返回 YAML 证据、diff 和 hunk_id；在 apply_file_modification 之前不会写入。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      range: { schema: str(), required: true, description: { en: 'Line range.', zh: '行范围。' } },
      content: {
        schema: str(),
        required: true,
        description: {
          en: 'New lines for the range ("" deletes it).',
          zh: '该范围的新内容（"" 表示删除）。',
        },
      },
      existing_hunk_id: {
        schema: str(),
        description: {
          en: 'Revise your earlier plan of the same kind ("" = new plan).',
          zh: '修订你之前同类型的规划（"" 表示新规划）。',
        },
      },
    },
  },
  {
    name: 'prepare_file_append',
    toolset: 'files',
    description: {
      en: 'Plan appending lines at the end of a file (create=true also creates a missing file). Returns evidence, a diff and a hunk_id.',
      zh: '规划在文件末尾追加内容（create=true 时文件不存在也可创建）。返回证据、diff 和 hunk_id。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      content: {
        schema: str(),
        required: true,
        description: { en: 'Lines to append.', zh: '要追加的内容。' },
      },
      create: {
        schema: bool(),
        description: {
          en: 'Create the file if missing (default false).',
          zh: '文件不存在时创建（默认 false）。',
        },
      },
      existing_hunk_id: {
        schema: str(),
        description: {
          en: 'Revise your earlier append plan ("" = new plan).',
          zh: '修订你之前的追加规划（"" 表示新规划）。',
        },
      },
    },
  },
  ...(['after', 'before'] as const).map<Spec>((where) => ({
    name: `prepare_file_insert_${where}`,
    toolset: 'files',
    description: {
      en: `Plan inserting lines ${where} an anchor line. If the anchor matches several lines, give occurrence (1-based or "last"). Returns evidence, a diff and a hunk_id.`,
      zh: `规划在锚点行${where === 'after' ? '之后' : '之前'}插入内容。锚点匹配多行时必须给出 occurrence（从 1 开始或 "last"）。返回证据、diff 和 hunk_id。`,
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      anchor: {
        schema: str(),
        required: true,
        description: { en: 'Text of the anchor line.', zh: '锚点行文本。' },
      },
      content: {
        schema: str(),
        required: true,
        description: { en: 'Lines to insert.', zh: '要插入的内容。' },
      },
      match: {
        schema: str({ enum: ['', 'contains', 'equals', 'regex'] }),
        description: {
          en: 'How the anchor matches a line ("" = contains).',
          zh: '锚点匹配方式（"" 表示 contains）。',
        },
      },
      occurrence: {
        schema: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] },
        description: {
          en: 'Which match: 1-based, or "last" (0 or "" = unset).',
          zh: '第几处匹配：从 1 开始，或 "last"（0 或 "" 表示未指定）。',
        },
      },
      existing_hunk_id: {
        schema: str(),
        description: {
          en: 'Revise your earlier plan ("" = new plan).',
          zh: '修订你之前的规划（"" 表示新规划）。',
        },
      },
    },
  })),
  {
    name: 'prepare_file_block_replace',
    toolset: 'files',
    description: {
      en: 'Plan replacing the block between a start anchor line and an end anchor line. include_anchors=true (default) keeps both anchor lines and replaces what is between; false replaces them too. Returns evidence, a diff and a hunk_id.',
      zh: '规划替换起止锚点行之间的块。include_anchors=true（默认）保留两个锚点行、只替换中间内容；false 连锚点行一起替换。返回证据、diff 和 hunk_id。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      start_anchor: {
        schema: str(),
        required: true,
        description: { en: 'Start anchor line text.', zh: '起始锚点行文本。' },
      },
      end_anchor: {
        schema: str(),
        required: true,
        description: { en: 'End anchor line text.', zh: '结束锚点行文本。' },
      },
      content: {
        schema: str(),
        required: true,
        description: { en: 'The new block content.', zh: '新的块内容。' },
      },
      match: {
        schema: str({ enum: ['', 'contains', 'equals', 'regex'] }),
        description: {
          en: 'Anchor matching ("" = contains).',
          zh: '锚点匹配方式（"" 表示 contains）。',
        },
      },
      include_anchors: {
        schema: bool(),
        description: {
          en: 'Keep the anchor lines (default true).',
          zh: '保留锚点行（默认 true）。',
        },
      },
      require_unique: {
        schema: bool(),
        description: {
          en: 'Refuse when several blocks match (default true).',
          zh: '匹配到多个块时拒绝（默认 true）。',
        },
      },
      strict: {
        schema: bool(),
        description: {
          en: 'Strict uniqueness (default true).',
          zh: '严格唯一性检查（默认 true）。',
        },
      },
      occurrence: {
        schema: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] },
        description: {
          en: 'Which block: 1-based or "last" (0 or "" = unset).',
          zh: '第几个块：从 1 开始或 "last"（0 或 "" 表示未指定）。',
        },
      },
      existing_hunk_id: {
        schema: str(),
        description: {
          en: 'Revise your earlier plan ("" = new plan).',
          zh: '修订你之前的规划（"" 表示新规划）。',
        },
      },
    },
  },
  {
    name: 'apply_file_modification',
    toolset: 'files',
    description: {
      en: 'Apply a planned hunk (from any prepare_file_* tool) to the file as it is now. context_match says exact, fuzz (relocated after other changes) or rejected (the planned lines changed: nothing written; plan again). A hunk applies once.',
      zh: '把已规划的 hunk（来自任一 prepare_file_* 工具）应用到文件当前内容。context_match 为 exact、fuzz（在其他改动后重新定位）或 rejected（规划的行已改变：未写入；请重新规划）。每个 hunk 只能应用一次。',
    },
    params: {
      hunk_id: {
        schema: str(),
        required: true,
        description: {
          en: 'The hunk_id a prepare tool returned.',
          zh: 'prepare 工具返回的 hunk_id。',
        },
      },
    },
  },
  {
    name: 'edit_file_search_replace',
    toolset: 'files',
    description: {
      en: 'Edit a file with one or more SEARCH/REPLACE blocks (`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`), applied in order. Formatting slips in SEARCH (indentation, trailing spaces, line endings, quotes) are forgiven; content differences and ambiguous matches are refused with the closest region and advice. A `:start_line:N` line (then `-------`) at the top of a SEARCH section only breaks a tie between places. All or nothing by default.',
      zh: '用一个或多个 SEARCH/REPLACE 块（`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`）按顺序编辑文件。SEARCH 中的格式偏差（缩进、行尾空格、换行符、引号）可被容忍；内容不同或匹配不唯一时拒绝，并给出最接近的位置与建议。SEARCH 段开头的 `:start_line:N` 行（其后接 `-------`）只用于在多处匹配中做选择。默认全部成功才写入。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      uri: {
        schema: str(),
        aliasOf: 'path',
        description: {
          en: 'Another name for path (give one of the two).',
          zh: 'path 的别名（二者给一个即可）。',
        },
      },
      search_replace: {
        schema: str(),
        required: true,
        description: { en: 'The SEARCH/REPLACE blocks.', zh: 'SEARCH/REPLACE 块文本。' },
      },
      atomic: {
        schema: bool(),
        description: { en: 'All or nothing (default true).', zh: '全部成功才写入（默认 true）。' },
      },
    },
  },
  {
    name: 'edit',
    toolset: 'files',
    description: {
      en: 'Replace one piece of a file: old_string (copied from the file, with a few unchanged lines around it so it matches one place) becomes new_string. Formatting slips in old_string (indentation, trailing spaces, line endings, quotes) are forgiven; content differences and ambiguous matches are refused with the closest region. The result names the strategy that matched. An empty old_string creates a missing file with new_string.',
      zh: '替换文件中的一处：old_string（从文件中复制，并带上几行不变的上下文，使其只匹配一处）替换为 new_string。old_string 中的格式偏差（缩进、行尾空格、换行符、引号）可被容忍；内容不同或匹配不唯一时拒绝，并给出最接近的位置。结果会注明匹配所用的策略。old_string 为空时，用 new_string 创建不存在的文件。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      old_string: {
        schema: str(),
        required: true,
        description: { en: 'The text to replace.', zh: '要替换的文本。' },
      },
      new_string: {
        schema: str(),
        required: true,
        description: { en: 'The text to put in its place.', zh: '替换后的文本。' },
      },
      replace_all: {
        schema: bool(),
        description: {
          en: 'Replace every place old_string matches (default false).',
          zh: '替换 old_string 匹配到的全部位置（默认 false）。',
        },
      },
      expected_replacements: {
        schema: { type: 'integer', minimum: 0 },
        description: {
          en: 'Exactly this many places must match, else nothing changes (0 = unset: one place).',
          zh: '必须恰好匹配这么多处，否则不做修改（0 表示未指定：一处）。',
        },
      },
      mode: {
        schema: str({ enum: ['', 'exact', 'safe', 'fuzzy'] }),
        description: {
          en: 'How much the match may forgive: exact, safe (formatting slips; the default, ""), or fuzzy (also near-identical text, when unambiguous).',
          zh: '匹配可容忍的程度：exact、safe（格式偏差；默认，""）或 fuzzy（在不歧义时也接受几乎相同的文本）。',
        },
      },
      instruction: {
        schema: str(),
        description: {
          en: 'What the edit is meant to do, in a sentence; used to correct old_string when it does not match ("" = none).',
          zh: '用一句话说明本次修改的目的；old_string 不匹配时用于修正（"" 表示不提供）。',
        },
      },
    },
  },
  {
    name: 'str_replace_based_edit_tool',
    toolset: 'files',
    description: {
      en: "Anthropic's text editor tool, with editkit's matching. `view`: a file's lines, numbered (view_range [start, end], 1-based, end -1 for the last line); a directory's files and folders, two levels deep, hidden ones left out. `create`: a new file holding file_text exactly (refused when the file exists). `str_replace`: old_str (copied from the file, with enough unchanged lines to match one place) becomes new_str; formatting slips are forgiven, ambiguity and content differences refused with the closest region. `insert`: new_str after line insert_line (0 for the top).",
      zh: 'Anthropic 文本编辑器工具，使用 editkit 的匹配。`view`：带行号的文件内容（view_range [起, 止]，从 1 开始，止为 -1 表示到末行）；目录则列出两层以内的文件和目录（不含隐藏项）。`create`：新建文件，内容与 file_text 完全一致（文件已存在时拒绝）。`str_replace`：把 old_str（从文件中复制，带足够的不变行以只匹配一处）替换为 new_str；容忍格式偏差，歧义或内容不同时拒绝并给出最接近的位置。`insert`：把 new_str 插入到第 insert_line 行之后（0 表示开头）。',
    },
    params: {
      command: {
        schema: str({ enum: ['view', 'create', 'str_replace', 'insert'] }),
        required: true,
        description: { en: 'What to do.', zh: '要做的操作。' },
      },
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      view_range: {
        schema: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
        description: {
          en: 'view: [start, end], 1-based; end -1 for the last line.',
          zh: 'view：[起, 止]，从 1 开始；止为 -1 表示到末行。',
        },
      },
      file_text: {
        schema: str(),
        description: { en: 'create: the new file’s text.', zh: 'create：新文件的内容。' },
      },
      old_str: {
        schema: str(),
        description: { en: 'str_replace: the text to replace.', zh: 'str_replace：要替换的文本。' },
      },
      new_str: {
        schema: str(),
        description: {
          en: 'str_replace: the text to put in its place; insert: the lines to insert.',
          zh: 'str_replace：替换后的文本；insert：要插入的行。',
        },
      },
      insert_text: {
        schema: str(),
        description: {
          en: 'insert: the lines to insert (the name Anthropic’s native tool uses; new_str also works).',
          zh: 'insert：要插入的行（Anthropic 原生工具使用此名称；也可用 new_str）。',
        },
      },
      insert_line: {
        schema: { type: 'integer', minimum: 0 },
        description: {
          en: 'insert: the line after which new_str goes (0 for the top).',
          zh: 'insert：new_str 插入在这一行之后（0 表示开头）。',
        },
      },
    },
  },
  {
    name: 'edit_snippet',
    toolset: 'files',
    description: {
      en: "Edit a file by writing only the changed parts, with the unchanged code in between (and before and after) written as an elision marker in the file's comment syntax: `// ... existing code ...`, `# ...`, `<!-- ... -->`. Each part starts and ends with a line that is in the file once (a signature, a distinctive statement); the lines between are the part's new text. Elided code is kept byte for byte; an anchor line found twice, or a part with no line in the file, is refused and nothing is written. Without a marker at the start (end), the snippet runs from the file's first (to its last) line.",
      zh: '只写出修改的部分来编辑文件，中间（以及前后）不变的代码用该文件注释语法的省略标记表示：`// ... existing code ...`、`# ...`、`<!-- ... -->`。每个部分以文件中只出现一次的行开始和结束（如签名、独特的语句），其间的行是该部分的新内容。省略的代码逐字节保留；锚点行出现两次或某部分在文件中没有任何行时拒绝，不写入任何内容。开头（末尾）没有标记时，片段从文件第一行开始（到最后一行结束）。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      snippet: {
        schema: str(),
        required: true,
        description: {
          en: 'The changed parts with elision markers between them.',
          zh: '修改的部分，其间用省略标记分隔。',
        },
      },
    },
  },
  {
    name: 'multi_edit',
    toolset: 'files',
    description: {
      en: 'Several edits to one file, applied in order (each to the result of the one before) and all or nothing: if one edit fails, the file is unchanged and every failure is reported. Each edit is { old_string, new_string, replace_all? } as in the edit tool.',
      zh: '对同一文件按顺序应用多处修改（每一处作用于前一处的结果），全部成功才写入：任一处失败则文件不变，并报告所有失败。每处修改为 { old_string, new_string, replace_all? }，与 edit 工具相同。',
    },
    params: {
      path: { schema: str(), required: true, description: { en: 'File path.', zh: '文件路径。' } },
      edits: {
        schema: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              old_string: { type: 'string', description: 'The text to replace.' },
              new_string: { type: 'string', description: 'The text to put in its place.' },
              replace_all: {
                type: 'boolean',
                description: 'Replace every place (default false).',
              },
            },
            required: ['old_string', 'new_string'],
            additionalProperties: false,
          },
        },
        required: true,
        description: { en: 'The edits, in order.', zh: '按顺序排列的修改。' },
      },
      mode: {
        schema: str({ enum: ['', 'exact', 'safe', 'fuzzy'] }),
        description: {
          en: 'How much the match may forgive: exact, safe (formatting slips; the default, ""), or fuzzy (also near-identical text, when unambiguous).',
          zh: '匹配可容忍的程度：exact、safe（格式偏差；默认，""）或 fuzzy（在不歧义时也接受几乎相同的文本）。',
        },
      },
    },
  },
  {
    name: 'apply_patch',
    toolset: 'files',
    description: {
      en: 'Apply a codex patch to one or more files: `*** Begin Patch`, then per file `*** Add File: <path>` (+ lines), `*** Delete File: <path>` or `*** Update File: <path>` (optional `*** Move to: <path>`) with hunks (`@@` or `@@ <line above the change>`, then lines starting with space, - or +; `*** End of File` for the last lines), then `*** End Patch`. Each hunk is placed by its context and removed lines (formatting slips forgiven, ambiguity refused with every candidate); nothing is written unless every hunk of every file applies.',
      zh: '对一个或多个文件应用 codex 补丁：`*** Begin Patch`，然后每个文件写 `*** Add File: <路径>`（+ 行）、`*** Delete File: <路径>` 或 `*** Update File: <路径>`（可选 `*** Move to: <路径>`）及其补丁块（`@@` 或 `@@ <修改处上方的一行>`，之后每行以空格、- 或 + 开头；末尾几行用 `*** End of File`），最后 `*** End Patch`。每个补丁块按其上下文行和删除行定位（容忍格式偏差，多处匹配时拒绝并列出全部位置）；任一补丁块失败则不写入任何内容。',
    },
    params: {
      patch: {
        schema: str(),
        required: true,
        description: { en: 'The patch text.', zh: '补丁文本。' },
      },
      atomic: {
        schema: bool(),
        description: {
          en: 'All or nothing across files (default true).',
          zh: '跨文件全部成功才写入（默认 true）。',
        },
      },
    },
  },
  {
    name: 'apply_diff',
    toolset: 'files',
    description: {
      en: 'Apply a unified diff to one or more files (`--- a/<path>`, `+++ b/<path>`, hunks `@@ -l,s +l,s @@`; `/dev/null` for a new or deleted file). Each hunk is placed by its context and removed lines; the @@ line numbers (read with the offset earlier hunks showed) break ties between places, a hunk without context lines goes exactly at its line, and counts that disagree with the hunk are refused. Nothing is written unless every hunk of every file applies.',
      zh: '对一个或多个文件应用 unified diff（`--- a/<路径>`、`+++ b/<路径>`、`@@ -l,s +l,s @@` 补丁块；新建或删除的文件用 `/dev/null`）。每个补丁块按其上下文行和删除行定位；@@ 中的行号（计入前面补丁块已显示的偏移）用于在多处匹配中做选择，没有上下文行的补丁块只放在它的行号处，行数与块内容不符时拒绝。任一补丁块失败则不写入任何内容。',
    },
    params: {
      diff: {
        schema: str(),
        required: true,
        description: { en: 'The unified diff text.', zh: 'unified diff 文本。' },
      },
      atomic: {
        schema: bool(),
        description: {
          en: 'All or nothing across files (default true).',
          zh: '跨文件全部成功才写入（默认 true）。',
        },
      },
    },
  },
];

/** The tool's parameters as a JSON Schema; a parameter with an alias is not `required` (either name may be given). */
export function schemaOf(spec: Spec, lang: Lang): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const aliased = new Set(Object.values(spec.params).map((p) => p.aliasOf));
  for (const [name, p] of Object.entries(spec.params)) {
    properties[name] = { ...p.schema, description: p.description[lang] };
    if (p.required && !aliased.has(name)) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

export function toolSpec(name: string): Spec | undefined {
  return SPECS.find((s) => s.name === name);
}

/**
 * One tool as a registry lists it (an MCP server, a SiYuan plugin's
 * `registerTool`): what the `mcp` format gives, plus its toolset and
 * whether it only reads.
 */
export interface ToolDescription {
  name: ToolName;
  toolset: Toolset;
  /** A human-readable name. */
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /** The schema of the structured result, for the tools whose result is data. */
  outputSchema?: McpOutputSchema;
  /** How the tool behaves: read-only, additive or destructive, idempotent. */
  annotations: McpToolAnnotations;
  /** It changes nothing (`annotations.readOnlyHint`, always set). */
  readOnlyHint: boolean;
}

/** @internal Tool `spec` in `lang`, as registries list it (the `mcp` format is built from it). */
export function describeTool(spec: Spec, lang: Lang): ToolDescription {
  const annotations = toolAnnotations(spec.name, lang);
  const outputSchema = toolOutputSchema(spec.name);
  return {
    name: spec.name,
    toolset: spec.toolset,
    title: toolTitle(spec.name, lang),
    description: spec.description[lang],
    inputSchema: schemaOf(spec, lang),
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
    readOnlyHint: annotations.readOnlyHint === true,
  };
}

/** @internal The language of the bare-string form of the options. */
export function readLang(value: string): Lang {
  if (value === 'en' || value === 'zh') return value;
  throw jsError(
    'INVALID_ARGUMENT',
    'invalidArgument',
    'en',
    ['lang', `expected "en" or "zh", got ${JSON.stringify(value)}`],
    { subject: 'lang' },
  );
}

export { GUIDES } from './guides.js';
import { GUIDES } from './guides.js';

const FORMATS: readonly ToolFormat[] = [
  'openai',
  'openai-responses',
  'anthropic',
  'mcp',
  'json-schema',
  'ai-sdk',
  'langchain',
];

/**
 * `spec`'s schema as a Standard JSON Schema for the AI SDK: the plain
 * schema, and a validator that checks arguments as the runner does (with
 * the runner's words for each problem).
 */
function aiSdkSchema(spec: Spec, parameters: ObjectSchema, lang: Lang): AiSdkInputSchema {
  const copy = (): ObjectSchema => JSON.parse(JSON.stringify(parameters)) as ObjectSchema;
  return {
    jsonSchema: parameters,
    '~standard': {
      version: 1,
      vendor: 'editkit',
      validate(value) {
        let problems: ArgProblem[];
        let args: Record<string, unknown> = {};
        try {
          const parsed = parseArgs(value);
          if ('problem' in parsed) problems = [parsed.problem];
          else {
            // The arguments as given: the runner reads them again.
            args = parsed.args;
            problems = checkArgs(spec, args).problems;
          }
        } catch (e) {
          problems = [{ kind: 'unreadable', detail: e instanceof Error ? e.message : String(e) }];
        }
        if (!problems.length) return { value: args };
        return {
          issues: problems.map((p) => ({
            message: argProblemText(p, lang),
            ...(p.kind === 'wrongType' || p.kind === 'aliasConflict'
              ? { path: p.field.split(/[.[\]]+/).filter(Boolean) }
              : {}),
          })),
        };
      },
      jsonSchema: { input: copy, output: copy },
    },
  };
}

/**
 * Tool definitions for an LLM API, plus the toolset guide for the system
 * prompt. `toolDefinitions('zh')` is short for `toolDefinitions({ lang: 'zh' })`.
 */
export function toolDefinitions<F extends ToolFormat = 'json-schema'>(
  defOptions: ToolDefinitionsOptions<F> | Lang = {},
): ToolDefinitionsOf<F> {
  // A bare language string is the short form: toolDefinitions('zh').
  const opts =
    typeof defOptions === 'string'
      ? {
          lang: readLang(defOptions),
          format: undefined,
          toolsets: undefined,
          anthropicTextEditor: undefined,
        }
      : readOptions(
          defOptions,
          ['lang', 'format', 'toolsets', 'anthropicTextEditor'] as const,
          'options',
        );
  const lang: Lang = opts.lang === 'zh' ? 'zh' : 'en';
  if (opts.format !== undefined && !FORMATS.includes(opts.format as ToolFormat)) {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      [
        'format',
        `expected one of ${FORMATS.map((f) => JSON.stringify(f)).join(', ')}, got ${JSON.stringify(opts.format)}`,
      ],
      { subject: 'format' },
    );
  }
  const editor = opts.anthropicTextEditor;
  if (editor !== undefined && editor !== 'native' && editor !== 'custom') {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      ['anthropicTextEditor', `expected "native" or "custom", got ${JSON.stringify(editor)}`],
      { subject: 'anthropicTextEditor' },
    );
  }
  const format = (opts.format ?? 'json-schema') as ToolFormat;
  const toolsets: Toolset[] = Array.isArray(opts.toolsets)
    ? opts.toolsets.filter((t): t is Toolset => t === 'siyuan' || t === 'files')
    : ['siyuan', 'files'];
  const specs = SPECS.filter((s) => toolsets.includes(s.toolset));
  const guide = toolsets.map((t) => GUIDES[t][lang]).join('\n\n');
  if (format === 'ai-sdk') {
    const record: AiSdkTools = {};
    for (const s of specs) {
      record[s.name] = {
        description: s.description[lang],
        inputSchema: aiSdkSchema(s, schemaOf(s, lang), lang),
      };
    }
    return { tools: record, guide } as ToolDefinitionsOf<F>;
  }
  const tools = specs.map((s): ToolDefinition => {
    const description = s.description[lang];
    const parameters = schemaOf(s, lang);
    switch (format) {
      case 'openai':
      case 'langchain':
        return { type: 'function', function: { name: s.name, description, parameters } };
      case 'openai-responses':
        return { type: 'function', name: s.name, description, parameters, strict: false };
      case 'anthropic':
        if (s.name === 'str_replace_based_edit_tool' && opts.anthropicTextEditor !== 'custom') {
          return { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' };
        }
        return { name: s.name, description, input_schema: parameters };
      case 'mcp':
        return mcpTool(describeTool(s, lang));
      default:
        return { name: s.name, description, parameters };
    }
  });
  return { tools, guide } as ToolDefinitionsOf<F>;
}

/** @internal A tool's description as an MCP `Tool` (editkit-mcp lists the same fields in the same order). */
export function mcpTool(d: ToolDescription): McpTool {
  return {
    name: d.name,
    title: d.title,
    description: d.description,
    inputSchema: d.inputSchema,
    annotations: d.annotations,
    ...(d.outputSchema ? { outputSchema: d.outputSchema } : {}),
  };
}
