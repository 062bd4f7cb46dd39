import { ek, FIXTURES, kernel } from './kernel-support.mjs';
const doc = FIXTURES[0];
const top = doc.tree.children;
const byId = new Map(doc.blocks.map((b) => [b.id, b]));
const para = top.find((n) => n.type === 'p' && byId.get(n.id).markdown.length > 2);
const doomed = top.find((n) => ['p', 'c', 'tb', 't', 'm'].includes(n.type) && n.id !== para.id);
const anchor = top.find((n) => n.id !== para.id && n.id !== doomed.id && n.type !== 'h');
const md = byId.get(para.id).markdown;
const half = [...md].slice(0, Math.ceil([...md].length / 2)).join('');
const diff = [
  `@@${para.id}@@`,
  '<<<<<<< SEARCH',
  half,
  '=======',
  `${half}（改）`,
  '>>>>>>> REPLACE',
  '',
  `@@DELETE:${doomed.id}@@`,
  '',
  `@@AFTER:${anchor.id}@@`,
  '插入的段落 😀',
  '',
  '## 新标题',
  '',
  `@@APPEND:${doc.document.id}@@`,
  '文末追加',
].join('\n');
const { double, host } = await kernel();
const report = await ek.applyBlockDiff(diff, host);
console.log(report.summary);
const n = double.calls.length;
const undone = await ek.applyBlockDiff(report.undo, host);
console.log(undone.summary);
console.log(
  JSON.stringify(
    undone.results.filter((r) => r.error).map((r) => r.error),
    null,
    1,
  ).slice(0, 1500),
);
for (const c of double.calls.slice(n))
  console.log(
    c.path,
    JSON.stringify(c.body).slice(0, 250),
    '=>',
    JSON.stringify(c.response).slice(0, 250),
  );
