// The demo page: the sample notebook in an in-memory SiYuan kernel (Lute
// splits the markdown, as the real kernel does) or a live kernel, reached
// through the same adapter a plugin uses; the document rendered as SiYuan
// shows it beside what an agent reads; a block-diff editor with live
// validation and the format explained beside it, dry run, apply and undo;
// an agent replay; the matcher playground; and the file prepare → apply
// flow. Every label is in the chosen language (i18n.js).
import init, * as ek from '/pkg/web.js';
import { createKernelDouble } from '/pkg/testing.js';
import {
  DOCUMENTS,
  NOTEBOOK,
  MATCHER_EXAMPLES,
  FILE_EXAMPLES,
  REPLAYS,
  exampleDiff,
  fixtureExampleDiff,
} from './sample-notebook.js';
import { applyLanguage, t } from './i18n.js';

// The sample notebook: the shared SiYuan fixtures when the server offers
// them (scripts/serve.mjs says so in /demo-config.json and serves
// ../shared/fixtures/siyuan/ read-only), else the built-in notebook.
const FIXTURES_URL = '/fixtures/siyuan/';
/** The type name the reader prints for a paragraph, per language (the example's header uses it). */
const PARAGRAPH = { en: 'paragraph', zh: '段落' };

const $ = (id) => document.getElementById(id);
const lang = () => $('lang').value;
const say = (key, ...args) => t(key, lang(), ...args);
const state = {
  host: null,
  source: 'memory',
  docs: [],
  undo: [],
  session: null,
  hunk: null,
  fixtures: null,
  /** Which example the editor offers: the built-in notebook's or the fixtures'. */
  exampleFor: 'memory',
  lute: null,
  status: { key: 'loading', args: [] },
  /** The matcher's note while nothing has run yet (re-said when the language changes). */
  matcherNote: 'matcherEmpty',
  /** The live kernel's state, as a text key (re-said when the language changes). */
  live: null,
  applyTitle: null,
  /** The diff of the last dry run, shown again in a new language. */
  lastDryRun: null,
};

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

/** A block's attribute line (`{: id="…" updated="…"}`): bookkeeping the kernel keeps, not text a reader sees. */
const IAL_LINE = /^[ +-]\{: [^}]*\}\s*$/;

function renderDiff(diff) {
  const all = diff.split('\n');
  const changes = (lines) => lines.filter((l) => /^[+-](?![+-]{2} )/.test(l)).length;
  // Attribute lines are hidden unless they are the whole change.
  const shown = all.filter((l) => !IAL_LINE.test(l));
  return (changes(shown) > 0 ? shown : all)
    .map((l) => {
      const cls =
        l.startsWith('+++') || l.startsWith('---') || l.startsWith('@@')
          ? 'meta'
          : l.startsWith('+')
            ? 'add'
            : l.startsWith('-')
              ? 'del'
              : '';
      return cls ? `<span class="${cls}">${escapeHtml(l)}</span>` : `${escapeHtml(l)}\n`;
    })
    .join('');
}

function setStatus(key, ...args) {
  state.status = { key, args };
  $('status').textContent = say(key, ...args);
}

// ---------------------------------------------------------------------------
// Data source

/** The example diff for a notebook, its header labelled `label`. */
function exampleOf(which, label) {
  return which === 'fixtures' ? fixtureExampleDiff(label) : exampleDiff(label);
}

function currentExample() {
  return exampleOf(state.exampleFor, PARAGRAPH[lang()]);
}

/** Switches the example; the editor follows when it still shows an example (or nothing). */
function setExample(which) {
  const shown = $('diff').value;
  const wasExample =
    shown.trim() === '' ||
    ['memory', 'fixtures'].some((w) =>
      Object.values(PARAGRAPH).some((label) => shown === exampleOf(w, label)),
    );
  state.exampleFor = which;
  $('format-example').textContent = currentExample();
  if (wasExample) {
    $('diff').value = currentExample();
    validateNow();
  }
}

function useKernel(kernel, source, docs, example) {
  state.host = ek.createSiyuanHost({ request: kernel.request });
  state.source = source;
  state.docs = docs;
  state.undo = [];
  document.body.dataset.sample = source === 'memory' ? 'builtin' : source;
  if (example) setExample(example);
  fillDocuments();
  // The replay plays on the notebook shown (a live kernel's notes are never written by it).
  if (replayNotebook() !== replay.notebook) restartReplay();
  else renderReplay();
}

function useMemoryKernel() {
  useKernel(
    memoryKernel(),
    'memory',
    DOCUMENTS.map((d) => ({ id: d.id, title: d.title })),
    'memory',
  );
}

/** The fixture notebook (index + documents), or null when the server has none. */
async function fetchFixtures() {
  try {
    const config = await (await fetch('/demo-config.json')).json();
    if (!config.fixtures) return null;
    const index = await (await fetch(`${FIXTURES_URL}notebook-index.json`)).json();
    // notebook-index.json names the file of each document that has a body.
    const files = index.documents
      .map((d) => d.fixture)
      .filter((f) => typeof f === 'string' && f)
      .sort();
    const fixtures = await Promise.all(
      files.map(async (file) => {
        const doc = await fetch(FIXTURES_URL + encodeURIComponent(file));
        if (!doc.ok) throw new Error(`fixture ${file}: HTTP ${doc.status}`);
        return doc.json();
      }),
    );
    return { index, fixtures };
  } catch (e) {
    // Any trouble means the built-in notebook, never a page that does not start.
    console.warn('editkit demo: the shared fixtures could not be read; using the built-in one', e);
    return null;
  }
}

/** A fresh in-memory kernel on the built-in notebook. */
function memoryKernel() {
  return createKernelDouble({ documents: DOCUMENTS, notebooks: [NOTEBOOK], now: () => new Date() });
}

/** A fresh in-memory kernel on the fixture notebook (copies: the double edits its documents in place). */
function fixtureKernel() {
  const { index, fixtures } = state.fixtures;
  return createKernelDouble({
    fixtures: structuredClone(fixtures),
    documentRows: structuredClone(index.documents),
    notebooks: [index.notebook],
    now: () => new Date(),
  });
}

function useFixtureKernel() {
  const { fixtures } = state.fixtures;
  useKernel(
    fixtureKernel(),
    'fixtures',
    fixtures.map((f) => ({
      id: f.document.id,
      title: f.document.content,
      hpath: f.document.hpath,
    })),
    'fixtures',
  );
}

function showLive(kind, key, ...args) {
  state.live = { kind, key, args };
  $('live-state').hidden = false;
  $('live-state').className = `live-state ${kind}`;
  $('live-state').textContent = say(key, ...args);
}

async function connectLive() {
  const url = $('live-url').value.trim() || 'http://127.0.0.1:6806';
  showLive('pending', 'liveConnecting', url);
  try {
    const request = ek.kernelRequest({ baseUrl: url, token: $('live-token').value });
    const answer = await request('/api/query/sql', {
      stmt: "SELECT id, content FROM blocks WHERE type = 'd' ORDER BY updated DESC LIMIT 50",
    });
    if (!answer || answer.code !== 0) throw new Error(answer?.msg || 'the kernel did not answer');
    useKernel(
      { request },
      'live',
      answer.data.map((r) => ({ id: r.id, title: r.content })),
      null,
    );
    showLive('good', 'liveConnected', url, answer.data.length);
  } catch (e) {
    showLive('bad', 'liveUnreachable', url, e.message);
    // The page keeps the notebook it had.
    const back = state.source === 'fixtures' ? 'source-fixtures' : 'source-memory';
    document.querySelector(`[data-testid="${back}"]`).checked = true;
  }
}

function fillDocuments() {
  $('doc-select').innerHTML = state.docs
    .map(
      (d) =>
        `<option value="${d.id}"${d.hpath ? ` title="${escapeHtml(d.hpath)}"` : ''}>${escapeHtml(d.title)}</option>`,
    )
    .join('');
  $('undo').disabled = true;
  $('apply').disabled = false;
  read();
}

// ---------------------------------------------------------------------------
// Reading

const HEADER = /^@@(\d{14}-[0-9a-z]{7})@@(.*)$/;

/** The document as SiYuan shows it: each top-level block rendered by Lute, its id on hover. */
function renderBlocks(text) {
  const blocks = [];
  for (const line of text.split('\n')) {
    const m = HEADER.exec(line);
    if (m) blocks.push({ id: m[1], label: m[2], lines: [] });
    else blocks.at(-1)?.lines.push(line);
  }
  return blocks
    .map((b) => {
      const markdown = b.lines.join('\n').trim();
      const html = state.lute ? state.lute.Md2HTML(markdown) : `<p>${escapeHtml(markdown)}</p>`;
      return `<div class="block" data-id="${b.id}" title="${b.id} · ${escapeHtml(b.label)}">${html}</div>`;
    })
    .join('');
}

async function read() {
  const blockId = $('doc-select').value;
  if (!blockId) return;
  const slice = $('slice').value.trim();
  const asked = { blockId, showId: $('show-id').checked, showSubStructure: $('show-sub').checked };
  // The rendered view needs the whole document with ids: the text view's
  // answer when it asked exactly that (the default), else a second read.
  const whole = asked.showId && !asked.showSubStructure && !slice;
  let text = null;
  try {
    text = (
      await ek.getBlockContent({ ...asked, ...(slice ? { slice } : {}) }, state.host, {
        lang: lang(),
      })
    ).text;
    $('doc-view').textContent = text;
  } catch (e) {
    $('doc-view').textContent = `${e.code}: ${e.message}`;
  }
  try {
    const withIds =
      whole && text !== null
        ? text
        : (await ek.getBlockContent({ blockId, showId: true }, state.host, { lang: lang() })).text;
    $('doc-rendered').innerHTML = renderBlocks(withIds);
  } catch (e) {
    $('doc-rendered').textContent = `${e.code}: ${e.message}`;
  }
}

async function info() {
  try {
    const r = await ek.getBlockInfo({ ids: $('doc-select').value }, state.host, { lang: lang() });
    $('doc-view').textContent = ek.formatBlockInfo(r, { lang: lang() });
  } catch (e) {
    $('doc-view').textContent = `${e.code}: ${e.message}`;
  }
}

// ---------------------------------------------------------------------------
// Block diff editor

function renderEditor(report) {
  const lines = $('diff').value.split('\n');
  const bad = new Map();
  for (const e of report?.errors ?? []) if (e.line) bad.set(e.line, e);
  $('gutter').innerHTML = lines
    .map((_, i) => (bad.has(i + 1) ? `<span class="bad">${i + 1}</span>` : `${i + 1}`))
    .join('\n');
  $('backdrop').innerHTML = lines
    .map((l, i) =>
      bad.has(i + 1)
        ? `<mark title="${escapeHtml(bad.get(i + 1).message)}">${escapeHtml(l || ' ')}</mark>`
        : escapeHtml(l),
    )
    .join('\n');
  const items = [];
  for (const e of report?.errors ?? []) {
    items.push(
      `<li data-line="${e.line ?? ''}"><span class="code-name">${e.code}</span>${escapeHtml(e.message)}${
        e.suggestions?.length ? `<br><small>→ ${escapeHtml(e.suggestions[0])}</small>` : ''
      }</li>`,
    );
  }
  for (const w of report?.warnings ?? []) {
    items.push(
      `<li class="warning" data-line="${w.line ?? ''}"><span class="code-name">${w.code}</span>${escapeHtml(w.message)}</li>`,
    );
  }
  if (report?.valid) items.push(`<li class="ok">${say('formatOk')}</li>`);
  $('problems').innerHTML = items.join('');
}

let pending = 0;
function validateSoon() {
  clearTimeout(pending);
  pending = setTimeout(validateNow, 120);
}
function validateNow() {
  const text = $('diff').value;
  renderEditor(text.trim() ? ek.validateBlockDiffFormat(text, { lang: lang() }) : null);
}

/** The report's edits in hunk order: the plan with its diffs, then each failure. */
function renderReport(report, title) {
  $('results').classList.remove('undone');
  $('summary').textContent = title ?? report.summary;
  $('summary').className = `summary ${report.ok ? 'good' : 'bad'}`;
  // Planned edits and failures in one list, in hunk order.
  const items = [
    ...report.plan.map((p) => {
      const r = report.results.find((x) => p.hunkIndexes.includes(x.hunkIndex));
      return {
        at: Math.min(...p.hunkIndexes),
        html: `<div class="edit" data-testid="plan-item"><h3>#${p.hunkIndexes.join(',')} ${p.kind} ${p.blockId} · ${r?.status ?? ''}${p.strategy ? ` · ${p.strategy}` : ''}</h3><pre class="diff">${renderDiff(p.diff)}</pre></div>`,
      };
    }),
    ...report.results
      .filter((x) => x.error)
      .map((r) => ({
        at: r.hunkIndex,
        html: `<div class="edit failed" data-testid="failure"><h3>#${r.hunkIndex} ${r.kind} ${r.blockId} · ${r.error.code}</h3><div class="err">${escapeHtml(r.error.message)}</div></div>`,
      })),
  ];
  const parts = items.sort((a, b) => a.at - b.at).map((x) => x.html);
  if (report.undo && !title)
    parts.push(
      `<details class="undo"><summary>${say('undoDiff')}</summary><pre>${escapeHtml(report.undo)}</pre></details>`,
    );
  $('results').innerHTML = parts.join('');
}

async function runDiff(dryRun) {
  // A dry run changes nothing, so a language switch can show it again.
  state.lastDryRun = dryRun ? $('diff').value : null;
  try {
    const report = await ek.applyBlockDiff($('diff').value, state.host, { dryRun, lang: lang() });
    // A diff that stopped before planning (malformed, the kernel unread).
    if (report.error) throw report.error;
    renderReport(report);
    if (!dryRun && report.ok) {
      if (report.undo) state.undo.push(report.undo);
      // The same diff cannot apply twice: Apply waits for a change.
      $('apply').disabled = true;
      $('apply').title = say('applyDone');
      state.applyTitle = 'applyDone';
    }
  } catch (e) {
    $('summary').textContent = `${e.code ?? 'ERROR'}: ${e.message.split('\n')[0]}`;
    $('summary').className = 'summary bad';
    $('results').innerHTML = (e.errors ?? [])
      .map((x) => `<div class="edit failed"><div class="err">${escapeHtml(x.message)}</div></div>`)
      .join('');
  }
  $('undo').disabled = state.undo.length === 0;
  await read();
}

async function undo() {
  const diff = state.undo.pop();
  if (!diff) return;
  state.lastDryRun = null;
  try {
    const report = await ek.applyBlockDiff(diff, state.host, { lang: lang() });
    // A refused undo changed nothing: it stays available.
    if (!report.ok) state.undo.push(diff);
    const restored = report.results.filter((r) => r.status === 'applied').length;
    renderReport(
      report,
      report.ok ? say('undoneTitle', restored) : say('undoFailed', report.summary),
    );
    $('results').classList.add('undone');
    $('apply').disabled = false;
    $('apply').title = '';
    state.applyTitle = null;
  } catch (e) {
    state.undo.push(diff);
    $('summary').textContent = say('undoFailed', `${e.code}: ${e.message.split('\n')[0]}`);
    $('summary').className = 'summary bad';
  }
  $('undo').disabled = state.undo.length === 0;
  await read();
}

// ---------------------------------------------------------------------------
// Agent replay: a scripted session through the tool runner, step by step.

/** The edit the agent sends: one sentence of the notebook's paragraph, changed. */
const replayDiff = (r) => `@@${r.block}@@
<<<<<<< SEARCH
${r.search}
=======
${r.replace}
>>>>>>> REPLACE`;
const REPLAY_STEPS = [
  { say: 'step1', tool: 'getBlockContent', args: (r) => ({ blockId: r.document, slice: '0:3' }) },
  { say: 'step2', tool: 'applyBlockDiff', args: (r) => ({ diff: replayDiff(r), dryRun: true }) },
  { say: 'step3', tool: 'applyBlockDiff', args: (r) => ({ diff: replayDiff(r) }) },
  { say: 'step4', tool: 'applyBlockDiff', args: (r) => ({ diff: replayDiff(r) }) },
  { say: 'step5', tool: 'applyBlockDiff', args: (r, undoDiff) => ({ diff: undoDiff }) },
];
const replay = { notebook: null, kernel: null, step: 0, undo: '', log: [], generation: 0 };

/** The notebook the replay plays on: the one shown, or the built-in one beside a live kernel. */
function replayNotebook() {
  return state.source === 'fixtures' && state.fixtures ? 'fixtures' : 'memory';
}

/** The replay's notebook named as the intro says it, in the page's language. */
function replayIntro() {
  const key =
    state.source === 'live'
      ? 'replayOnLive'
      : replay.notebook === 'fixtures'
        ? 'replayOnFixtures'
        : 'replayOnMemory';
  return say('replayIntro', say(key, REPLAYS[replay.notebook].title));
}

function restartReplay() {
  // A step still running belongs to the old session: its result is dropped.
  replay.generation++;
  replay.notebook = replayNotebook();
  replay.kernel = replay.notebook === 'fixtures' ? fixtureKernel() : memoryKernel();
  replay.step = 0;
  replay.undo = '';
  replay.log = [];
  renderReplay();
}

async function nextReplayStep() {
  if (replay.step >= REPLAY_STEPS.length) return;
  const generation = replay.generation;
  $('replay-next').disabled = true;
  try {
    const step = REPLAY_STEPS[replay.step];
    const session = REPLAYS[replay.notebook];
    const args = step.args(session, replay.undo);
    const runner = ek.createToolRunner({
      siyuan: ek.createSiyuanHost({ request: replay.kernel.request }),
      lang: lang(),
    });
    const result = await runner.runDetailed(step.tool, args);
    if (generation !== replay.generation) return;
    // The apply's undo diff is what the last step sends.
    if (step.say === 'step3' && result.data?.undo) replay.undo = result.data.undo;
    const paragraph = replay.kernel.block(session.block)?.markdown ?? '';
    replay.log.push({ step, args, result, paragraph });
    replay.step++;
  } finally {
    if (generation === replay.generation) renderReplay();
  }
}

/** Plays the session again up to `steps` steps (a language switch: the agent's texts in the new language). */
async function replayTo(steps) {
  restartReplay();
  for (let i = 0; i < steps; i++) await nextReplayStep();
}

/** A tool call as a person reads it: multi-line text as a block, other values as JSON. */
function formatCall(tool, args) {
  const lines = [tool];
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' && value.includes('\n'))
      lines.push(`  ${key}: |`, ...value.split('\n').map((l) => `    ${l}`));
    else lines.push(`  ${key}: ${JSON.stringify(value)}`);
  }
  return lines.join('\n');
}

function renderReplay() {
  const total = REPLAY_STEPS.length;
  $('replay-intro').textContent = replayIntro();
  $('replay-log').innerHTML = replay.log
    .map(
      (
        { step, args, result, paragraph },
        i,
      ) => `<li class="replay-step ${result.isError ? 'refused' : 'ok'}" data-testid="replay-step">
  <p class="narration">${escapeHtml(say(step.say))}</p>
  <h4>${say('replayCall')}</h4>
  <pre class="call">${escapeHtml(formatCall(step.tool, args))}</pre>
  <h4>${say('replayAnswer')} <span class="badge" data-testid="replay-badge">${say(result.isError ? 'replayError' : 'replayOk')}</span></h4>
  <pre class="answer" data-testid="replay-answer">${escapeHtml(result.text)}</pre>
  <p class="paragraph"><strong>${say('replayDocument')}:</strong> <span data-testid="replay-paragraph-${i + 1}">${escapeHtml(paragraph)}</span></p>
</li>`,
    )
    .join('');
  $('replay-progress').textContent =
    replay.step >= total ? say('replayDone') : say('replayStep', replay.step + 1, total);
  $('replay-next').disabled = replay.step >= total;
}

// ---------------------------------------------------------------------------
// Matcher playground

function showMatcherError(e) {
  $('m-summary').className = 'summary bad';
  $('m-summary').textContent = `${e.code ?? 'ERROR'}: ${String(e.message).split('\n')[0]}`;
  // The details below the summary, each said once: the closest region and the next steps.
  const parts = [];
  if (e.diff) parts.push(renderDiff(e.diff));
  if (e.suggestions?.length)
    parts.push(
      `${escapeHtml(say('nextSteps'))}:\n${e.suggestions.map((s) => `  → ${escapeHtml(s)}`).join('\n')}`,
    );
  $('m-output').innerHTML = parts.join('\n');
}

function matcher(replace) {
  state.matcherNote = null;
  const content = $('m-content').value;
  const search = $('m-search').value;
  const opts = { mode: $('m-mode').value, lang: lang() };
  try {
    if (!replace) {
      const r = ek.findMatch(content, search, opts);
      $('m-summary').className = `summary ${r.found ? 'good' : 'bad'}`;
      if (r.found) {
        $('m-summary').textContent = say(
          'foundBy',
          r.strategy,
          r.matches.map((m) => say('linesRange', m.startLine, m.endLine)).join(', '),
        );
        $('m-output').textContent = r.matches.map((m) => m.text).join('\n---\n');
      } else {
        $('m-summary').textContent =
          `${r.code ?? 'NOT_FOUND'} · ${say('notFound', r.tried.join(', '))}`;
        $('m-output').innerHTML = r.closest
          ? `${escapeHtml(say('closestRegion', r.closest.startLine, r.closest.endLine, Math.round(r.closest.similarity * 100)))}\n${renderDiff(r.closest.diff)}`
          : '';
      }
      return;
    }
    const r = ek.replaceText(content, search, $('m-replace').value, opts);
    $('m-summary').className = 'summary good';
    $('m-summary').textContent = say('replacedBy', r.strategy, r.occurrences);
    $('m-output').innerHTML = renderDiff(
      ek.unifiedDiff(content, r.content, { oldName: 'before', newName: 'after' }),
    );
    $('m-content').value = r.content;
  } catch (e) {
    showMatcherError(e);
  }
}

const MATCHER_FIELDS = { content: 'm-content', search: 'm-search', replace: 'm-replace' };

/** The example in another language follows a language switch while it is untouched. */
function followMatcherExample() {
  const shown = (e) => Object.entries(MATCHER_FIELDS).every(([k, id]) => $(id).value === e[k]);
  const other = Object.entries(MATCHER_EXAMPLES).find(([l, e]) => l !== lang() && shown(e));
  if (!other) return;
  for (const [k, id] of Object.entries(MATCHER_FIELDS)) $(id).value = MATCHER_EXAMPLES[lang()][k];
}

function loadMatcherExample() {
  for (const [k, id] of Object.entries(MATCHER_FIELDS)) $(id).value = MATCHER_EXAMPLES[lang()][k];
  $('m-summary').className = 'summary';
  state.matcherNote = 'exampleLoaded';
  $('m-summary').textContent = say('exampleLoaded');
  $('m-output').textContent = '';
}

// ---------------------------------------------------------------------------
// Prepare → apply

/** Shows only the inputs the chosen tool takes. */
function showToolInputs() {
  const tool = $('f-tool').value;
  for (const label of document.querySelectorAll('[data-for-tools]'))
    label.hidden = !label.dataset.forTools.split(' ').includes(tool);
}

const FILE_FIELDS = {
  range: 'f-range',
  anchor: 'f-anchor',
  startAnchor: 'f-start',
  endAnchor: 'f-end',
  newText: 'f-new',
};

/**
 * The chosen tool's example in the page's language, in each field that is
 * empty or still shows an example (what a person typed stays); the file
 * itself while it is another language's untouched sample.
 */
function fillFileExample() {
  const example = FILE_EXAMPLES[lang()];
  const all = Object.values(FILE_EXAMPLES);
  const content = $('f-content').value;
  if (content === '' || all.some((e) => e !== example && e.content === content)) {
    $('f-content').value = example.content;
    // A plan made on the other text no longer applies to this one.
    if (state.hunk) {
      state.hunk = null;
      $('f-apply').disabled = true;
      $('f-summary').textContent = '';
      $('f-summary').className = 'summary';
      $('f-diff').textContent = '';
      $('f-output').textContent = '';
    }
  }
  for (const [key, value] of Object.entries(example.tools[$('f-tool').value])) {
    const field = $(FILE_FIELDS[key]);
    const untouched =
      field.value === '' ||
      all.some((e) => Object.values(e.tools).some((x) => x[key] === field.value));
    if (untouched) field.value = value;
  }
}

function prepare() {
  const tool = $('f-tool').value;
  const common = {
    path: 'notes.md',
    content: $('f-content').value,
    newText: $('f-new').value,
    owner: 'demo',
    lang: lang(),
  };
  try {
    const s = state.session;
    const plan =
      tool === 'range'
        ? s.prepareRangeEdit({ ...common, range: $('f-range').value })
        : tool === 'append'
          ? s.prepareAppend(common)
          : tool === 'after'
            ? s.prepareInsertAfter({ ...common, anchor: $('f-anchor').value })
            : tool === 'before'
              ? s.prepareInsertBefore({ ...common, anchor: $('f-anchor').value })
              : s.prepareBlockReplace({
                  ...common,
                  startAnchor: $('f-start').value,
                  endAnchor: $('f-end').value,
                });
    state.hunk = plan.hunkId;
    $('f-summary').className = 'summary good';
    $('f-summary').textContent = say('planned', plan.hunkId);
    $('f-diff').innerHTML = renderDiff(plan.diff);
    $('f-output').textContent = plan.yaml;
    $('f-apply').disabled = false;
  } catch (e) {
    $('f-summary').className = 'summary bad';
    $('f-summary').textContent = `${e.code}: ${e.message}`;
    $('f-diff').textContent = '';
    $('f-output').textContent = e.yaml ?? '';
  }
}

function applyHunk() {
  try {
    const r = state.session.apply({
      hunkId: state.hunk,
      owner: 'demo',
      content: $('f-content').value,
      lang: lang(),
    });
    const rejected = r.contextMatch === 'rejected';
    $('f-summary').className = `summary ${rejected ? 'bad' : 'good'}`;
    $('f-summary').textContent = rejected
      ? say('rejectedHunk', r.summary)
      : say('appliedHunk', r.contextMatch, r.summary);
    $('f-diff').innerHTML = renderDiff(r.diff);
    $('f-output').textContent = r.yaml;
    if (r.changed) $('f-content').value = r.content;
    // A hunk applies once.
    if (!rejected) $('f-apply').disabled = true;
  } catch (e) {
    $('f-summary').className = 'summary bad';
    $('f-summary').textContent = `${e.code}: ${e.message}`;
  }
}

// ---------------------------------------------------------------------------

// On a language switch the page's own texts follow at once; what editkit
// said is said again where asking again changes nothing (the reader, the
// format check, a dry run, the replay, which plays again on a fresh
// notebook). Results of writes stay as they were written.
function setLanguage() {
  applyLanguage(lang());
  $('format-help').innerHTML = say('formatHelp', PARAGRAPH[lang()]);
  setExample(state.exampleFor);
  setStatus(state.status.key, ...state.status.args);
  if (state.matcherNote) $('m-summary').textContent = say(state.matcherNote);
  followMatcherExample();
  fillFileExample();
  if (state.live && !$('live-state').hidden)
    showLive(state.live.kind, state.live.key, ...state.live.args);
  if (state.applyTitle) $('apply').title = say(state.applyTitle);
  validateNow();
  if (replay.step > 0) void replayTo(replay.step);
  else renderReplay();
  if (state.host) read();
  if (state.lastDryRun !== null && state.lastDryRun === $('diff').value) void runDiff(true);
}

function wire() {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener('click', () => {
      for (const t of document.querySelectorAll('[role="tab"]'))
        t.setAttribute('aria-selected', String(t === tab));
      for (const p of document.querySelectorAll('.tab-panel'))
        p.hidden = p.id !== `tab-${tab.dataset.tab}`;
    });
  }
  for (const radio of document.querySelectorAll('input[name="source"]')) {
    radio.addEventListener('change', () => {
      $('live-fields').hidden = radio.value !== 'live' || !radio.checked;
      if (radio.value !== 'live') $('live-state').hidden = true;
      if (radio.value === 'memory' && radio.checked) useMemoryKernel();
      if (radio.value === 'fixtures' && radio.checked) useFixtureKernel();
    });
  }
  $('live-connect').addEventListener('click', connectLive);
  $('doc-select').addEventListener('change', read);
  $('read').addEventListener('click', read);
  $('info').addEventListener('click', info);
  $('diff').addEventListener('input', () => {
    $('apply').disabled = false;
    $('apply').title = '';
    validateSoon();
  });
  $('diff').addEventListener('scroll', () => {
    $('backdrop').scrollTop = $('gutter').scrollTop = $('diff').scrollTop;
    $('backdrop').scrollLeft = $('diff').scrollLeft;
  });
  $('problems').addEventListener('click', (e) => {
    const line = Number(e.target.closest('li')?.dataset.line);
    if (!line) return;
    const lines = $('diff').value.split('\n');
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    $('diff').focus();
    $('diff').setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  });
  $('lang').addEventListener('change', setLanguage);
  const loadExample = () => {
    $('diff').value = currentExample();
    $('apply').disabled = false;
    validateNow();
  };
  $('example').addEventListener('click', loadExample);
  $('copy-example').addEventListener('click', loadExample);
  $('dry-run').addEventListener('click', () => runDiff(true));
  $('apply').addEventListener('click', () => runDiff(false));
  $('undo').addEventListener('click', undo);
  $('replay-next').addEventListener('click', nextReplayStep);
  $('replay-restart').addEventListener('click', restartReplay);
  $('m-find').addEventListener('click', () => matcher(false));
  $('m-replace-btn').addEventListener('click', () => matcher(true));
  $('m-example').addEventListener('click', loadMatcherExample);
  $('f-tool').addEventListener('change', () => {
    showToolInputs();
    fillFileExample();
  });
  $('f-prepare').addEventListener('click', prepare);
  $('f-apply').addEventListener('click', applyHunk);
}

async function main() {
  applyLanguage(lang());
  await init();
  // SiYuan's Lute (loaded by a script tag, as in the app) renders blocks to HTML.
  if (globalThis.Lute) {
    state.lute = globalThis.Lute.New();
    state.lute.SetSanitize?.(true);
  }
  wire();
  state.session = new ek.FileEditSession({ now: () => Date.now() });
  showToolInputs();
  fillFileExample();
  state.fixtures = await fetchFixtures();
  if (state.fixtures) {
    $('source-fixtures-label').hidden = false;
    $('source-fixtures').checked = true;
    useFixtureKernel();
  } else {
    useMemoryKernel();
  }
  setLanguage();
  setStatus('ready', ek.version());
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  setStatus('loadFailed', e.message);
  console.error(e);
});
