// The demo page: the sample notebook in an in-memory host, a block-diff
// editor with live validation, dry run, apply and undo.
import init, { applyBlockDiff, validateBlockDiffFormat, version } from '/pkg/web.js';
import { createMemoryHost } from '/pkg/testing.js';
import { DOCUMENTS, EXAMPLE_DIFF } from './sample-notebook.js';

const $ = (id) => document.getElementById(id);
const LABELS = {
  zh: { p: '段落', h: '标题', l: '列表', i: '列表项', b: '引述', s: '超级块', c: '代码', t: '表格', m: '公式', tb: '分隔线' },
  en: { p: 'paragraph', h: 'heading', l: 'list', i: 'list item', b: 'blockquote', s: 'superblock', c: 'code', t: 'table', m: 'math', tb: 'thematic break' },
};

const state = { host: null, docId: DOCUMENTS[0].id, undo: [], changed: new Set() };
const lang = () => $('lang').value;

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function renderDocument() {
  const blocks = state.host.topLevel(state.docId);
  const labels = LABELS[lang()] ?? LABELS.en;
  $('doc-view').innerHTML = blocks
    .map((b) => {
      const cls = state.changed.has(b.id) ? ' class="changed"' : '';
      return `<span${cls}><span class="hdr">@@${b.id}@@${labels[b.type] ?? b.type}</span>\n${escapeHtml(b.markdown ?? '')}</span>`;
    })
    .join('\n\n');
}

function renderEditor(report) {
  const text = $('diff').value;
  const lines = text.split('\n');
  const bad = new Map();
  for (const e of report?.errors ?? []) if (e.line) bad.set(e.line, e);
  $('gutter').innerHTML = lines.map((_, i) => (bad.has(i + 1) ? `<span class="bad">${i + 1}</span>` : `${i + 1}`)).join('\n');
  $('backdrop').innerHTML = lines
    .map((l, i) => (bad.has(i + 1) ? `<mark title="${escapeHtml(bad.get(i + 1).message)}">${escapeHtml(l || ' ')}</mark>` : escapeHtml(l)))
    .join('\n');
  const items = [];
  for (const e of report?.errors ?? []) {
    items.push(`<li data-line="${e.line ?? ''}"><span class="code-name">${e.code}</span>${escapeHtml(e.message)}${
      e.suggestions?.length ? `<br><small>→ ${escapeHtml(e.suggestions[0])}</small>` : ''
    }</li>`);
  }
  for (const w of report?.warnings ?? []) {
    items.push(`<li class="warning" data-line="${w.line ?? ''}"><span class="code-name">${w.code}</span>${escapeHtml(w.message)}</li>`);
  }
  if (report && report.valid && text.trim()) items.push(`<li class="ok">${lang() === 'zh' ? '格式正确' : 'Format OK'}</li>`);
  $('problems').innerHTML = items.join('');
}

let pending = 0;
function validateSoon() {
  clearTimeout(pending);
  pending = setTimeout(validateNow, 120);
}
function validateNow() {
  const text = $('diff').value;
  renderEditor(text.trim() ? validateBlockDiffFormat(text, { lang: lang() }) : null);
}

function renderDiff(diff) {
  return diff
    .split('\n')
    .map((l) => {
      const cls = l.startsWith('+++') || l.startsWith('---') || l.startsWith('@@') ? 'meta' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : '';
      return cls ? `<span class="${cls}">${escapeHtml(l)}</span>` : escapeHtml(l) + '\n';
    })
    .join('');
}

function renderReport(report) {
  $('summary').textContent = report.summary;
  $('summary').className = `summary ${report.ok ? 'good' : 'bad'}`;
  const parts = [];
  for (const p of report.plan) {
    const result = report.results.find((r) => p.hunkIndexes.includes(r.hunkIndex));
    parts.push(`<div class="edit" data-testid="plan-item"><h3>#${p.hunkIndexes.join(',')} ${p.kind} ${p.blockId} · ${result?.status ?? ''}${p.strategy ? ` · ${p.strategy}` : ''}</h3><pre class="diff">${renderDiff(p.diff)}</pre></div>`);
  }
  for (const r of report.results.filter((r) => r.error)) {
    parts.push(`<div class="edit failed" data-testid="failure"><h3>#${r.hunkIndex} ${r.kind} ${r.blockId} · ${r.error.code}</h3><div class="err">${escapeHtml(r.error.message)}</div></div>`);
  }
  if (report.undo) parts.push(`<details class="undo"><summary>Undo diff</summary><pre>${escapeHtml(report.undo)}</pre></details>`);
  $('results').innerHTML = parts.join('');
}

function renderError(e) {
  $('summary').textContent = `${e.code ?? 'ERROR'}: ${e.message}`;
  $('summary').className = 'summary bad';
  $('results').innerHTML = (e.errors ?? []).map((x) => `<div class="edit"><div class="err">${escapeHtml(x.message)}</div></div>`).join('');
}

async function run(dryRun) {
  try {
    const report = await applyBlockDiff($('diff').value, state.host, { dryRun, lang: lang() });
    renderReport(report);
    if (!dryRun && report.undo) {
      state.undo.push(report.undo);
      state.changed = new Set(report.plan.map((p) => p.blockId).concat(report.results.flatMap((r) => r.newBlockIds)));
    }
  } catch (e) {
    renderError(e);
  }
  $('undo').disabled = state.undo.length === 0;
  renderDocument();
}

async function undo() {
  const diff = state.undo.pop();
  if (!diff) return;
  try {
    const report = await applyBlockDiff(diff, state.host, { lang: lang() });
    renderReport(report);
    state.changed = new Set();
  } catch (e) {
    renderError(e);
  }
  $('undo').disabled = state.undo.length === 0;
  renderDocument();
}

async function main() {
  await init();
  state.host = createMemoryHost({ documents: DOCUMENTS, now: () => new Date() });
  $('doc-select').innerHTML = DOCUMENTS.map((d) => `<option value="${d.id}">${escapeHtml(d.title)}</option>`).join('');
  $('doc-select').addEventListener('change', (e) => {
    state.docId = e.target.value;
    renderDocument();
  });
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
    renderDocument();
  });
  $('example').addEventListener('click', () => {
    $('diff').value = EXAMPLE_DIFF;
    validateNow();
  });
  $('dry-run').addEventListener('click', () => run(true));
  $('apply').addEventListener('click', () => run(false));
  $('undo').addEventListener('click', undo);
  $('diff').value = EXAMPLE_DIFF;
  validateNow();
  renderDocument();
  $('status').textContent = `editkit ${version()} ready`;
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('status').textContent = `failed to load: ${e.message}`;
  console.error(e);
});
