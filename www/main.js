// The demo page: the sample notebook in an in-memory SiYuan kernel (Lute
// splits the markdown, as the real kernel does) or a live kernel, reached
// through the same adapter a plugin uses; reading with ids and slices; a
// block-diff editor with live validation, dry run, apply and undo; the
// matcher playground; and the file prepare → apply flow.
import init, * as ek from '/pkg/web.js';
import { createKernelDouble } from '/pkg/testing.js';
import {
  DOCUMENTS,
  EXAMPLE_DIFF,
  NOTEBOOK,
  MATCHER_EXAMPLE,
  FILE_EXAMPLE,
} from './sample-notebook.js';

// The sample notebook: the shared SiYuan fixtures when the server offers them
// (scripts/serve.mjs serves ../shared/fixtures/siyuan/ read-only here), else
// the built-in notebook in sample-notebook.js.
const FIXTURES_URL = '/fixtures/siyuan/';
// A block diff against the fixture notebook's weekly report (项目周报).
const FIXTURE_EXAMPLE_DIFF = [
  '@@20240614083000-a1b2c3d@@',
  '<<<<<<< SEARCH',
  '并修复了若干问题。',
  '=======',
  '并修复了三个问题。',
  '>>>>>>> REPLACE',
  '',
  '@@AFTER:20240614083000-a1b2c3d@@',
  '下周计划：发布 dry-run 预览。',
].join('\n');

const $ = (id) => document.getElementById(id);
const lang = () => $('lang').value;
const state = {
  host: null,
  request: null,
  docs: [],
  undo: [],
  session: null,
  hunk: null,
  clock: 0,
  fixtures: null,
  example: EXAMPLE_DIFF,
};

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

function renderDiff(diff) {
  return diff
    .split('\n')
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

function showError(target, summary, e) {
  $(summary).textContent = `${e.code ?? 'ERROR'}: ${e.message}`;
  $(summary).className = 'summary bad';
  if (target) $(target).textContent = e.yaml ?? (e.errors ?? []).map((x) => x.message).join('\n');
}

// ---------------------------------------------------------------------------
// Data source

async function useMemoryKernel() {
  const kernel = createKernelDouble({
    documents: DOCUMENTS,
    notebooks: [NOTEBOOK],
    now: () => new Date(),
  });
  state.request = kernel.request;
  state.host = ek.createSiyuanHost({ request: kernel.request });
  state.docs = DOCUMENTS.map((d) => ({ id: d.id, title: d.title }));
  state.undo = [];
  setExample(EXAMPLE_DIFF);
  document.body.dataset.sample = 'builtin';
  fillDocuments();
}

/** The fixture notebook (index + documents), or null when the server has none. */
async function fetchFixtures() {
  // Any trouble (no folder, a malformed index, a missing document) means
  // the built-in notebook, never a page that does not start.
  try {
    const res = await fetch(`${FIXTURES_URL}notebook-index.json`);
    if (!res.ok) return null;
    const index = await res.json();
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
    console.warn(
      'editkit demo: the shared fixtures could not be read; using the built-in notebook',
      e,
    );
    return null;
  }
}

async function useFixtureKernel() {
  const { index, fixtures } = state.fixtures;
  // Fresh copies: the double edits its documents in place.
  const kernel = createKernelDouble({
    fixtures: structuredClone(fixtures),
    documentRows: structuredClone(index.documents),
    notebooks: [index.notebook],
    now: () => new Date(),
  });
  state.request = kernel.request;
  state.host = ek.createSiyuanHost({ request: kernel.request });
  state.docs = fixtures.map((f) => ({
    id: f.document.id,
    title: f.document.content,
    hpath: f.document.hpath,
  }));
  state.undo = [];
  setExample(FIXTURE_EXAMPLE_DIFF);
  document.body.dataset.sample = 'fixtures';
  fillDocuments();
}

/** Switches the example diff; the editor follows when it still shows the old example. */
function setExample(diff) {
  if ($('diff').value === state.example) {
    $('diff').value = diff;
    validateNow();
  }
  state.example = diff;
}

async function useLiveKernel() {
  const request = ek.kernelRequest({
    baseUrl: $('live-url').value || 'http://127.0.0.1:6806',
    token: $('live-token').value,
  });
  const answer = await request('/api/query/sql', {
    stmt: "SELECT id, content FROM blocks WHERE type = 'd' ORDER BY updated DESC LIMIT 50",
  });
  if (!answer || answer.code !== 0) throw new Error(answer?.msg || 'the kernel did not answer');
  state.request = request;
  state.host = ek.createSiyuanHost({ request });
  state.docs = answer.data.map((r) => ({ id: r.id, title: r.content }));
  state.undo = [];
  document.body.dataset.sample = 'live';
  fillDocuments();
}

function fillDocuments() {
  $('doc-select').innerHTML = state.docs
    .map(
      (d) =>
        `<option value="${d.id}"${d.hpath ? ` title="${escapeHtml(d.hpath)}"` : ''}>${escapeHtml(d.title)}</option>`,
    )
    .join('');
  $('undo').disabled = true;
  read();
}

// ---------------------------------------------------------------------------
// Reading

async function read() {
  const blockId = $('doc-select').value;
  if (!blockId) return;
  try {
    const slice = $('slice').value.trim();
    const r = await ek.getBlockContent(
      {
        blockId,
        showId: $('show-id').checked,
        showSubStructure: $('show-sub').checked,
        ...(slice ? { slice } : {}),
      },
      state.host,
      { lang: lang() },
    );
    $('doc-view').textContent = r.text;
  } catch (e) {
    $('doc-view').textContent = `${e.code}: ${e.message}`;
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
  if (report?.valid)
    items.push(`<li class="ok">${lang() === 'zh' ? '格式正确' : 'Format OK'}</li>`);
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

function renderReport(report) {
  $('summary').textContent = report.summary;
  $('summary').className = `summary ${report.ok ? 'good' : 'bad'}`;
  const parts = [];
  for (const p of report.plan) {
    const r = report.results.find((x) => p.hunkIndexes.includes(x.hunkIndex));
    parts.push(
      `<div class="edit" data-testid="plan-item"><h3>#${p.hunkIndexes.join(',')} ${p.kind} ${p.blockId} · ${r?.status ?? ''}${p.strategy ? ` · ${p.strategy}` : ''}</h3><pre class="diff">${renderDiff(p.diff)}</pre></div>`,
    );
  }
  for (const r of report.results.filter((x) => x.error)) {
    parts.push(
      `<div class="edit failed" data-testid="failure"><h3>#${r.hunkIndex} ${r.kind} ${r.blockId} · ${r.error.code}</h3><div class="err">${escapeHtml(r.error.message)}</div></div>`,
    );
  }
  if (report.undo)
    parts.push(
      `<details class="undo"><summary>Undo diff</summary><pre>${escapeHtml(report.undo)}</pre></details>`,
    );
  $('results').innerHTML = parts.join('');
}

async function runDiff(dryRun) {
  try {
    const report = await ek.applyBlockDiff($('diff').value, state.host, { dryRun, lang: lang() });
    renderReport(report);
    if (!dryRun && report.undo) state.undo.push(report.undo);
  } catch (e) {
    showError(null, 'summary', e);
    $('results').innerHTML = (e.errors ?? [])
      .map((x) => `<div class="edit"><div class="err">${escapeHtml(x.message)}</div></div>`)
      .join('');
  }
  $('undo').disabled = state.undo.length === 0;
  await read();
}

async function undo() {
  const diff = state.undo.pop();
  if (!diff) return;
  try {
    renderReport(await ek.applyBlockDiff(diff, state.host, { lang: lang() }));
  } catch (e) {
    showError(null, 'summary', e);
  }
  $('undo').disabled = state.undo.length === 0;
  await read();
}

// ---------------------------------------------------------------------------
// Matcher playground

function matcher(replace) {
  const content = $('m-content').value;
  const search = $('m-search').value;
  const opts = { mode: $('m-mode').value, lang: lang() };
  try {
    if (!replace) {
      const r = ek.findMatch(content, search, opts);
      $('m-summary').className = `summary ${r.found ? 'good' : 'bad'}`;
      $('m-summary').textContent = r.found
        ? `found by ${r.strategy}: ${r.matches.map((m) => `lines ${m.startLine}–${m.endLine}`).join(', ')}`
        : `not found (tried: ${r.tried.join(', ')})`;
      $('m-output').textContent = JSON.stringify(r, null, 2);
      return;
    }
    const r = ek.replaceText(content, search, $('m-replace').value, opts);
    $('m-summary').className = 'summary good';
    $('m-summary').textContent =
      `replaced by ${r.strategy} (${r.occurrences} place${r.occurrences === 1 ? '' : 's'})`;
    $('m-output').innerHTML = renderDiff(
      ek.unifiedDiff(content, r.content, { oldName: 'before', newName: 'after' }),
    );
    $('m-content').value = r.content;
  } catch (e) {
    showError('m-output', 'm-summary', e);
    $('m-output').textContent = e.message;
  }
}

// ---------------------------------------------------------------------------
// Prepare → apply

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
                  startAnchor: $('f-anchor').value,
                  endAnchor: $('f-end').value,
                });
    state.hunk = plan.hunkId;
    $('f-summary').className = 'summary good';
    $('f-summary').textContent = `planned ${plan.hunkId}: ${plan.summary}`;
    $('f-output').innerHTML = `${escapeHtml(plan.yaml)}\n${renderDiff(plan.diff)}`;
    $('f-apply').disabled = false;
  } catch (e) {
    showError('f-output', 'f-summary', e);
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
    $('f-summary').className = `summary ${r.contextMatch === 'rejected' ? 'bad' : 'good'}`;
    $('f-summary').textContent = `context_match: ${r.contextMatch} — ${r.summary}`;
    $('f-output').innerHTML = `${escapeHtml(r.yaml)}\n${renderDiff(r.diff)}`;
    if (r.changed) $('f-content').value = r.content;
    if (r.contextMatch !== 'rejected') $('f-apply').disabled = true;
  } catch (e) {
    showError('f-output', 'f-summary', e);
  }
}

// ---------------------------------------------------------------------------

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
    radio.addEventListener('change', async () => {
      $('live-fields').hidden = radio.value !== 'live' || !radio.checked;
      if (radio.value === 'memory' && radio.checked) await useMemoryKernel();
      if (radio.value === 'fixtures' && radio.checked) await useFixtureKernel();
    });
  }
  $('live-connect').addEventListener('click', async () => {
    try {
      await useLiveKernel();
      $('status').textContent = 'connected to the live kernel';
    } catch (e) {
      $('status').textContent = `live kernel: ${e.message}`;
    }
  });
  $('doc-select').addEventListener('change', read);
  $('read').addEventListener('click', read);
  $('info').addEventListener('click', info);
  $('diff').addEventListener('input', validateSoon);
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
  $('lang').addEventListener('change', () => {
    validateNow();
    read();
  });
  $('example').addEventListener('click', () => {
    $('diff').value = state.example;
    validateNow();
  });
  $('dry-run').addEventListener('click', () => runDiff(true));
  $('apply').addEventListener('click', () => runDiff(false));
  $('undo').addEventListener('click', undo);
  $('m-find').addEventListener('click', () => matcher(false));
  $('m-replace-btn').addEventListener('click', () => matcher(true));
  $('m-example').addEventListener('click', loadMatcherExample);
  $('f-prepare').addEventListener('click', prepare);
  $('f-apply').addEventListener('click', applyHunk);
}

function loadMatcherExample() {
  $('m-content').value = MATCHER_EXAMPLE.content;
  $('m-search').value = MATCHER_EXAMPLE.search;
  $('m-replace').value = MATCHER_EXAMPLE.replace;
}

async function main() {
  await init();
  wire();
  state.session = new ek.FileEditSession({ now: () => Date.now() });
  $('diff').value = state.example;
  loadMatcherExample();
  $('f-content').value = FILE_EXAMPLE.content;
  $('f-new').value = FILE_EXAMPLE.newText;
  $('f-anchor').value = FILE_EXAMPLE.anchor;
  $('f-end').value = FILE_EXAMPLE.endAnchor;
  state.fixtures = await fetchFixtures();
  if (state.fixtures) {
    $('source-fixtures-label').hidden = false;
    $('source-fixtures').checked = true;
    await useFixtureKernel();
  } else {
    await useMemoryKernel();
  }
  validateNow();
  $('status').textContent = `editkit ${ek.version()} ready`;
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('status').textContent = `failed to load: ${e.message}`;
  console.error(e);
});
