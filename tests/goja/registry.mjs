// Prints the SiYuan tools as the package's registry describes them, in
// English and Chinese, for the goja harness to compare with what
// kernel.js registers: { en: [tool…], zh: [tool…] }, each tool
// { name, title, description, inputSchema, readOnly }.
//   node tests/goja/registry.mjs
import { ek } from '../node/support.mjs';

const described = (lang) =>
  ek.createToolRegistry({ lang, toolsets: ['siyuan'] }).tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    readOnly: t.readOnlyHint,
  }));
console.log(JSON.stringify({ en: described('en'), zh: described('zh') }));
