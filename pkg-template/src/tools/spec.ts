// What a tool is, before any SDK's shape: its name, toolset, descriptions
// and parameters (a Spec), and the JSON Schema subset tool calling uses.
// A leaf: the definitions, the argument checks, their messages and the
// MCP metadata all read it, and it reads none of them.

import type { Lang } from '../types.js';

/**
 * Every tool's name, in the order `toolDefinitions` lists them (a test
 * holds the two together).
 */
export const TOOL_NAMES = [
  'getBlockInfo',
  'getBlockContent',
  'appendContent',
  'createNewDoc',
  'applyBlockDiff',
  'read_file',
  'create_new_file',
  'overwrite_entire_file',
  'prepare_file_range_edit',
  'prepare_file_append',
  'prepare_file_insert_after',
  'prepare_file_insert_before',
  'prepare_file_block_replace',
  'apply_file_modification',
  'edit_file_search_replace',
  'edit',
  'str_replace_based_edit_tool',
  'edit_snippet',
  'multi_edit',
  'apply_patch',
  'apply_diff',
] as const;

/** The name of an editkit tool. */
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * A JSON Schema (the subset tool calling uses). A type alias, not an
 * interface, so it is assignable to the SDKs' `{ [key: string]: unknown }`
 * parameter types.
 */
export type JsonSchema = {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: (string | number | boolean)[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  minimum?: number;
  pattern?: string;
  default?: string | number | boolean;
};

/** A tool's parameters: always an object schema (what every SDK requires). */
export type ObjectSchema = JsonSchema & {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
};

export type Toolset = 'siyuan' | 'files';

/** A text in every language editkit speaks. */
export type I18n = Record<Lang, string>;

export interface ParamSpec {
  schema: JsonSchema;
  description: I18n;
  required?: boolean;
  /** Another name for the parameter `aliasOf` (seed 003's `uri` for `path`). */
  aliasOf?: string;
}

/** One tool: its name, toolset, description and parameters (the schema is built from these). */
export interface Spec {
  name: ToolName;
  toolset: Toolset;
  description: I18n;
  params: Record<string, ParamSpec>;
}

/** The schema pattern of a block id. */
export const BLOCK_ID_SCHEMA_PATTERN = '^\\d{14}-[0-9a-z]{7}$';
