// Toolset guides for the system prompt, in our own words: how to read
// SiYuan notes with ids and slices, how to write a block diff, and the
// prepare → apply discipline for files.

import type { Lang } from '../types.js';

const SIYUAN_EN = `# Editing SiYuan notes

Read before you write. Every SiYuan block has an id like 20260108164554-m5ar6vb.

Reading
- getBlockInfo(ids) is cheap: type, length, outline, breadcrumb. Use it to orient.
- getBlockContent(blockId, showId: true) prints each block as
  @@<id>@@<type>
  <markdown>
  Those headers are what applyBlockDiff needs; copy them as they are.
- Long documents: page with slice, e.g. "0:20", then "<last id>:+20" for the next page.
  A slice turns showId and showSubStructure on.
- A heading's markdown is only its own line; the blocks under it have their own ids.

Writing with applyBlockDiff
- Change part of a block: the header, then SEARCH/REPLACE pairs:
  @@20260108164554-m5ar6vb@@
  <<<<<<< SEARCH
  exact current text (the whole block, or a part that occurs once)
  =======
  new text
  >>>>>>> REPLACE
  An empty REPLACE removes the searched text (the whole block if SEARCH was all of it).
- Replace a whole block without a check: @@REPLACE:<id>@@ then the new markdown.
- Delete: @@DELETE:<id>@@. Insert siblings: @@BEFORE:<id>@@ / @@AFTER:<id>@@.
  Insert children of a document, list, quote or superblock: @@PREPEND:<id>@@ / @@APPEND:<id>@@
  (on a heading: right after it / at the end of its section).
- Many hunks may go in one diff; they are all checked first and nothing is written if one fails.
  Use dryRun: true to preview the plan and its diffs.
- If a block's content itself contains a line like "=======", use @@REPLACE:<id>@@.
- On CONTENT_MISMATCH: re-read the block with getBlockContent and copy its markdown into SEARCH.
- Keep the undo diff from the result: applying it restores what you changed.`;

const SIYUAN_ZH = `# 编辑思源笔记

先读后写。每个思源块都有形如 20260108164554-m5ar6vb 的 ID。

读取
- getBlockInfo(ids) 开销小：类型、长度、大纲、面包屑，用于定位。
- getBlockContent(blockId, showId: true) 以如下形式输出每个块：
  @@<ID>@@<类型>
  <markdown>
  applyBlockDiff 需要的正是这些头部行，请原样复制。
- 长文档用 slice 分页，例如 "0:20"，下一页用 "<上一页最后的 ID>:+20"。slice 会自动开启 showId 与 showSubStructure。
- 标题块的 markdown 只有标题这一行；其下方的块各有自己的 ID。

用 applyBlockDiff 写入
- 修改块的一部分：头部行，然后是 SEARCH/REPLACE：
  @@20260108164554-m5ar6vb@@
  <<<<<<< SEARCH
  当前的准确文本（整个块，或只出现一次的片段）
  =======
  新文本
  >>>>>>> REPLACE
  REPLACE 为空表示删除被搜索的文本（若 SEARCH 是整个块，则删除该块）。
- 不做校验、整体替换一个块：@@REPLACE:<ID>@@ 后跟新 markdown。
- 删除：@@DELETE:<ID>@@。插入同级块：@@BEFORE:<ID>@@ / @@AFTER:<ID>@@。
  插入到文档、列表、引述、超级块内部：@@PREPEND:<ID>@@ / @@APPEND:<ID>@@（对标题：紧跟其后 / 其下属内容末尾）。
- 一个 diff 可包含多个 hunk；会先全部校验，只要有一个失败就不写入任何内容。用 dryRun: true 预览计划与 diff。
- 如果块内容本身含有 "=======" 这类行，请使用 @@REPLACE:<ID>@@。
- 出现 CONTENT_MISMATCH：用 getBlockContent 重新读取该块，把它的 markdown 复制到 SEARCH。
- 保留结果中的 undo diff：应用它即可撤销本次修改。`;

const FILES_EN = `# Editing text files

Never write blind: plan, review, then apply.
- read_file first (line numbers help you pick ranges and anchors).
- Plan with a prepare tool: prepare_file_range_edit (by lines), prepare_file_append,
  prepare_file_insert_after / prepare_file_insert_before (by anchor line), prepare_file_block_replace
  (between two anchor lines). Each returns YAML evidence, a unified diff and a hunk_id. Nothing is written yet.
- Check the diff. To change the plan, call the same prepare tool again with existing_hunk_id.
- Apply with apply_file_modification(hunk_id) in a later message (tools called in one message run in parallel
  and cannot see each other's results). context_match: exact or fuzz means written; rejected means the planned
  lines changed and nothing was written: read again and plan again.
- A hunk applies once; plans expire after an hour.
- For small edits by text: edit (old_string → new_string; include a few unchanged lines so it matches one
  place; replace_all or expected_replacements for several), multi_edit (several edits to one file, all or
  nothing), or edit_file_search_replace (SEARCH/REPLACE blocks). old_string / SEARCH must match the file:
  formatting slips are forgiven, guesses are not. The result names the strategy that matched and shows the diff.
- Agents trained on Anthropic's text editor can use str_replace_based_edit_tool (view with view_range, create,
  str_replace, insert after insert_line): the same matching as edit.
- edit_snippet takes only the changed parts of a file, the unchanged code between them written as
  \`// ... existing code ...\` (in the file's comment syntax); start and end each part on a line found once in the file.
- Patches over several files: apply_patch (a codex \`*** Begin Patch\` envelope: Add/Delete/Update File, \`@@\`
  hunks, Move to) or apply_diff (a unified diff). Give each hunk three unchanged lines around the change; hunks of
  a file go in file order. Line numbers (with the offset earlier hunks showed) break ties; a hunk without context lines
  goes exactly at its line; nothing is written unless every hunk of every file applies.
- overwrite_entire_file needs the total_lines and size_bytes read_file reported; use it only for small files or
  generated content. create_new_file never overwrites.`;

const FILES_ZH = `# 编辑文本文件

绝不盲写：先规划，再复核，后应用。
- 先用 read_file 读取（行号便于选择范围和锚点）。
- 用 prepare 工具规划：prepare_file_range_edit（按行）、prepare_file_append、
  prepare_file_insert_after / prepare_file_insert_before（按锚点行）、prepare_file_block_replace（两个锚点行之间）。
  每个都会返回 YAML 证据、unified diff 和 hunk_id，此时尚未写入。
- 检查 diff。要修改规划，带 existing_hunk_id 再次调用同一个 prepare 工具。
- 在下一条消息中用 apply_file_modification(hunk_id) 应用（同一条消息中的工具并行执行，彼此看不到结果）。
  context_match 为 exact 或 fuzz 表示已写入；rejected 表示规划的行已变化、未写入：请重新读取并重新规划。
- 每个 hunk 只能应用一次；规划一小时后过期。
- 按文本做小修改：edit（old_string → new_string；带上几行不变的上下文使其只匹配一处；多处用 replace_all 或
  expected_replacements）、multi_edit（同一文件的多处修改，全部成功才写入）或 edit_file_search_replace（SEARCH/REPLACE 块）。
  old_string / SEARCH 必须与文件相符：格式偏差可容忍，猜测不行。结果会注明匹配所用的策略并给出 diff。
- 习惯 Anthropic 文本编辑器的智能体可用 str_replace_based_edit_tool（view 配 view_range、create、str_replace、
  在 insert_line 之后 insert）：匹配方式与 edit 相同。
- edit_snippet 只需写出文件中修改的部分，其间不变的代码写成 \`// ... existing code ...\`（使用该文件的注释语法）；
  每个部分以文件中只出现一次的行开始和结束。
- 跨多个文件的补丁：apply_patch（codex \`*** Begin Patch\` 格式：Add/Delete/Update File、\`@@\` 补丁块、Move to）或
  apply_diff（unified diff）。每个补丁块在修改前后各带三行不变的内容；同一文件的补丁块按文件顺序排列。行号只用于
  在多处匹配中做选择；任一补丁块失败则不写入任何内容。
- overwrite_entire_file 需要 read_file 报告的 total_lines 与 size_bytes；只用于小文件或生成内容。create_new_file 从不覆盖已有文件。`;

export const GUIDES: Record<'siyuan' | 'files', Record<Lang, string>> = {
  siyuan: { en: SIYUAN_EN, zh: SIYUAN_ZH },
  files: { en: FILES_EN, zh: FILES_ZH },
};
