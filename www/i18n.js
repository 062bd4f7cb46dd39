// Every text the page itself shows, in English and Chinese side by side.
// Static labels carry data-i18n="key" (textContent), data-i18n-placeholder,
// data-i18n-title or data-i18n-html (trusted markup written here); dynamic
// texts come from t(key, …args) with {0}, {1} fill-ins.

export const TEXTS = {
  title: { en: 'editkit demo', zh: 'editkit 演示' },
  tagline: {
    en: 'Precise, verifiable edits for AI agents — SiYuan block diffs and fuzzy SEARCH/REPLACE, running in your browser (WebAssembly).',
    zh: '为 AI 智能体提供精确、可验证的编辑——思源块级 diff 与容错 SEARCH/REPLACE，在浏览器中运行（WebAssembly）。',
  },
  language: { en: 'Language', zh: '语言' },
  loading: { en: 'loading…', zh: '加载中…' },
  ready: { en: 'editkit {0} ready', zh: 'editkit {0} 已就绪' },
  loadFailed: { en: 'failed to load: {0}', zh: '加载失败：{0}' },
  sourceLabel: { en: 'Data source', zh: '数据来源' },
  sourceFixtures: {
    en: 'Sample notebook from the SiYuan fixtures (in-memory kernel)',
    zh: '思源测试数据中的示例笔记本（内存内核）',
  },
  sourceMemory: {
    en: 'Built-in sample notebook (in-memory kernel)',
    zh: '内置示例笔记本（内存内核）',
  },
  sourceLive: { en: 'Live SiYuan kernel', zh: '运行中的思源内核' },
  kernelUrl: { en: 'Kernel URL', zh: '内核地址' },
  apiToken: { en: 'API token', zh: 'API 令牌' },
  connect: { en: 'Connect', zh: '连接' },
  liveConnecting: { en: 'Connecting to {0}…', zh: '正在连接 {0}…' },
  liveConnected: {
    en: 'Connected to the live kernel at {0}: {1} documents. Edits change your real notes.',
    zh: '已连接 {0} 的内核：{1} 篇文档。编辑会修改你的真实笔记。',
  },
  liveUnreachable: {
    en: 'The live kernel at {0} is unreachable ({1}). Check that SiYuan is running, the address and the API token (Settings → About). The page keeps the in-memory notebook.',
    zh: '无法连接 {0} 的内核（{1}）。请确认思源正在运行，并检查地址与 API 令牌（设置 → 关于）。页面继续使用内存中的笔记本。',
  },
  tabSiyuan: { en: 'SiYuan notes', zh: '思源笔记' },
  tabReplay: { en: 'Agent replay', zh: '智能体回放' },
  tabMatcher: { en: 'Matcher playground', zh: '匹配器试验场' },
  tabFiles: { en: 'Prepare → apply', zh: '规划 → 应用' },
  read: { en: 'Read', zh: '阅读' },
  document: { en: 'Document', zh: '文档' },
  rendered: { en: 'As SiYuan shows it', zh: '思源中的显示' },
  renderedHint: {
    en: 'Hover a block to see its id.',
    zh: '鼠标悬停在块上可查看其 ID。',
  },
  asText: {
    en: 'What an agent reads (getBlockContent)',
    zh: '智能体读到的内容（getBlockContent）',
  },
  blockDiff: { en: 'Block diff', zh: '块 diff' },
  formatTitle: { en: 'The block-diff format', zh: '块 diff 格式' },
  formatHelp: {
    en: `<p>Each edit starts with a header line naming a block by its id, as the reader above shows it.</p>
<ul>
<li><code>@@&lt;id&gt;@@</code> then one or more <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt; SEARCH</code> / <code>=======</code> / <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt; REPLACE</code> blocks: SEARCH must be the block's current text (or a part found once); it is checked before anything is written.</li>
<li><code>@@REPLACE:&lt;id&gt;@@</code> + markdown: rewrite the whole block, unchecked.</li>
<li><code>@@DELETE:&lt;id&gt;@@</code>: delete the block.</li>
<li><code>@@BEFORE:&lt;id&gt;@@</code> / <code>@@AFTER:&lt;id&gt;@@</code> + markdown: insert next to the block.</li>
<li><code>@@PREPEND:&lt;id&gt;@@</code> / <code>@@APPEND:&lt;id&gt;@@</code> + markdown: insert inside a document, list, quote or super block (for a heading: right after it / at the end of its section).</li>
</ul>
<p>The text after the second <code>@@</code> (a type such as <em>{0}</em>) is optional. All hunks are checked first; one failure writes nothing. Dry run shows the plan; every apply returns an undo diff.</p>`,
    zh: `<p>每个编辑以一行头部开始，用块 ID 指明要改的块，ID 与上方阅读区显示的一致。</p>
<ul>
<li><code>@@&lt;ID&gt;@@</code> 之后跟一个或多个 <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt; SEARCH</code> / <code>=======</code> / <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt; REPLACE</code> 块：SEARCH 必须是块的当前内容（或其中只出现一次的片段），写入前会先校验。</li>
<li><code>@@REPLACE:&lt;ID&gt;@@</code> + markdown：整体改写该块，不做校验。</li>
<li><code>@@DELETE:&lt;ID&gt;@@</code>：删除该块。</li>
<li><code>@@BEFORE:&lt;ID&gt;@@</code> / <code>@@AFTER:&lt;ID&gt;@@</code> + markdown：在块的前面 / 后面插入。</li>
<li><code>@@PREPEND:&lt;ID&gt;@@</code> / <code>@@APPEND:&lt;ID&gt;@@</code> + markdown：插入到文档、列表、引述或超级块内部（对标题：紧跟其后 / 其下属内容末尾）。</li>
</ul>
<p>第二个 <code>@@</code> 之后的文字（如类型 <em>{0}</em>）可省略。所有 hunk 先全部校验，任何一个失败都不写入。“试运行”展示计划；每次应用都会返回撤销用的 diff。</p>`,
  },
  exampleTitle: { en: 'Example (copy it into the editor)', zh: '示例（复制到编辑器）' },
  copyExample: { en: 'Use this example', zh: '使用此示例' },
  loadExample: { en: 'Load example', zh: '载入示例' },
  dryRun: { en: 'Dry run', zh: '试运行' },
  apply: { en: 'Apply', zh: '应用' },
  undo: { en: 'Undo last apply', zh: '撤销上次应用' },
  applyDone: {
    en: 'Applied. Change the diff to apply again.',
    zh: '已应用。修改 diff 后才能再次应用。',
  },
  formatOk: { en: 'Format OK', zh: '格式正确' },
  result: { en: 'Result', zh: '结果' },
  undoDiff: { en: 'Undo diff', zh: '撤销用的 diff' },
  undoneTitle: {
    en: 'Undone: {0} block(s) restored to what they were before the last apply.',
    zh: '已撤销：{0} 个块恢复为上次应用之前的内容。',
  },
  undoFailed: {
    en: 'The undo was refused, nothing changed: {0}',
    zh: '撤销被拒绝，未做任何修改：{0}',
  },
  planItem: { en: '#{0} {1} {2}', zh: '#{0} {1} {2}' },
  replayTitle: { en: 'An agent edits a note', zh: '智能体编辑一篇笔记' },
  replayIntro: {
    en: 'A scripted agent session against {0}, one tool call per step: it reads with a slice, previews its edit, applies it, sends the same edit again (refused: the text it expects is gone), then undoes the edit.',
    zh: '一段预设的智能体会话，作用于{0}，每一步一次工具调用：用 slice 阅读、预览编辑、应用、再次发送同一编辑（被拒绝：它期望的文字已不在）、最后撤销。',
  },
  replayOnMemory: {
    en: 'the built-in sample notebook (document “{0}”)',
    zh: '内置示例笔记本（文档“{0}”）',
  },
  replayOnFixtures: {
    en: 'the sample notebook from the SiYuan fixtures (document “{0}”)',
    zh: '思源测试数据中的示例笔记本（文档“{0}”）',
  },
  replayOnLive: {
    en: 'the built-in sample notebook (document “{0}”; the replay never writes to the live kernel)',
    zh: '内置示例笔记本（文档“{0}”；回放不会写入运行中的内核）',
  },
  replayNext: { en: 'Next step', zh: '下一步' },
  replayRestart: { en: 'Restart', zh: '重新开始' },
  replayDone: { en: 'The session is over.', zh: '会话结束。' },
  replayStep: { en: 'Step {0} of {1}', zh: '第 {0} 步，共 {1} 步' },
  replayCall: { en: 'Tool call', zh: '工具调用' },
  replayAnswer: { en: 'What the agent reads', zh: '智能体读到的结果' },
  replayError: { en: 'refused (isError)', zh: '被拒绝（isError）' },
  replayOk: { en: 'ok', zh: '成功' },
  replayDocument: { en: 'The paragraph now', zh: '该段落当前内容' },
  step1: {
    en: 'The agent reads the start of the document with a slice: three blocks, each with its @@id@@ header.',
    zh: '智能体用 slice 读取文档开头：三个块，每块带 @@ID@@ 头部。',
  },
  step2: {
    en: 'It writes a block diff from what it read and previews it (dryRun): nothing is written.',
    zh: '它根据读到的内容写出块 diff，并先预览（dryRun）：不写入任何内容。',
  },
  step3: {
    en: 'It applies the diff: the block is checked, written and verified; an undo diff comes back.',
    zh: '它应用该 diff：先校验块，再写入并核对；同时返回撤销用的 diff。',
  },
  step4: {
    en: 'It sends the same edit again. The text it expects is gone, so the edit is refused and nothing is written.',
    zh: '它再次发送同一编辑。它期望的文字已不存在，因此编辑被拒绝，不写入任何内容。',
  },
  step5: {
    en: 'It applies the undo diff: the paragraph is as it was.',
    zh: '它应用撤销用的 diff：段落恢复原样。',
  },
  fileContent: { en: 'File content', zh: '文件内容' },
  searchReplace: { en: 'Search → replace', zh: '搜索 → 替换' },
  mode: { en: 'mode', zh: '模式' },
  matcherEmpty: {
    en: 'Paste a file and a search, or press “Load example”.',
    zh: '粘贴文件内容与搜索文本，或点击“载入示例”。',
  },
  exampleLoaded: {
    en: 'Example loaded: the search has 2-space indentation and a trailing space where the file has 4 spaces. Press “Find only”, or “edit” to replace as the agent tool edit does.',
    zh: '示例已载入：搜索文本用 2 个空格缩进并带行尾空格，而文件用 4 个空格。点击“仅查找”，或点击“edit”按智能体工具 edit 的方式替换。',
  },
  findOnly: { en: 'Find only', zh: '仅查找' },
  foundBy: { en: 'found by {0}: {1}', zh: '由 {0} 找到：{1}' },
  linesRange: { en: 'lines {0}–{1}', zh: '第 {0}–{1} 行' },
  notFound: { en: 'not found (tried: {0})', zh: '未找到（已尝试：{0}）' },
  replacedBy: { en: 'replaced by {0} ({1} place(s))', zh: '由 {0} 替换（{1} 处）' },
  closestRegion: {
    en: 'Closest region: lines {0}–{1} ({2}% similar)',
    zh: '最接近的位置：第 {0}–{1} 行（相似度 {2}%）',
  },
  nextSteps: { en: 'What to do next', zh: '下一步' },
  fileTitle: { en: 'File', zh: '文件' },
  fileHint: {
    en: 'Plan against this text, then edit it (as another writer would) before applying.',
    zh: '先基于此文本规划，再像另一位作者那样修改它，然后应用。',
  },
  plan: { en: 'Plan', zh: '规划' },
  tool: { en: 'tool', zh: '工具' },
  range: { en: 'range', zh: '行范围' },
  anchor: { en: 'anchor line', zh: '锚点行' },
  startAnchor: { en: 'start anchor', zh: '起始锚点' },
  endAnchor: { en: 'end anchor', zh: '结束锚点' },
  newText: { en: 'new text', zh: '新内容' },
  prepare: { en: 'Prepare', zh: '规划' },
  applyHunk: { en: 'Apply hunk', zh: '应用此处修改' },
  planOutput: { en: 'Diff and evidence', zh: 'diff 与证据' },
  yamlEvidence: { en: 'YAML evidence (what an agent reads)', zh: 'YAML 证据（智能体读到的内容）' },
  planned: {
    en: 'Planned hunk {0}. Nothing is written yet: review the diff below, then press “Apply hunk”.',
    zh: '已规划修改 {0}。尚未写入：请检查下方的 diff，然后点击“应用此处修改”。',
  },
  appliedHunk: {
    en: 'context_match: {0} — {1} The file on the left is updated.',
    zh: 'context_match：{0} — {1} 左侧文件已更新。',
  },
  rejectedHunk: {
    en: 'context_match: rejected — {0} The file is unchanged; prepare again.',
    zh: 'context_match：rejected — {0} 文件未改动；请重新规划。',
  },
};

/** `key` in `lang`, with `{0}`… filled in. */
export function t(key, lang, ...args) {
  const entry = TEXTS[key];
  if (!entry) throw new Error(`demo: no text ${key}`);
  return entry[lang].replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ''));
}

/** Sets every static label of the page in `lang`. */
export function applyLanguage(lang, root = document) {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('title', lang);
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n, lang);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]'))
    el.placeholder = t(el.dataset.i18nPlaceholder, lang);
  for (const el of root.querySelectorAll('[data-i18n-title]'))
    el.setAttribute('aria-label', t(el.dataset.i18nTitle, lang));
}
