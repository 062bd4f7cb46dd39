// read_file: a file's lines (or a range of them), numbered, with what is left to read.

import { formatFileView } from '../../files.js';
import { fileMissing } from '../results.js';
import { b, count, s } from './args.js';
import { defineTool } from './context.js';
import { readText } from './file-io.js';

export const readFileTool = defineTool('read_file', async (ctx, a) => {
  const path = s(a.path);
  const content = await readText(ctx, path);
  if (content === null) return fileMissing(path, ctx.lang);
  const view = formatFileView({
    path,
    content,
    range: s(a.range) || undefined,
    maxLines: count(a.max_lines),
    showLineNumbers: b(a.show_line_numbers, true),
    lang: ctx.lang,
  });
  return { text: view.text, isError: false, data: view };
});
