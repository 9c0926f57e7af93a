import iconv from 'iconv-lite';
import type { Converter } from '../types';
import { ConversionError } from '../types';
import type { Block } from '../markdown/model';
import { renderMarkdown } from '../markdown/writer';
import { bold, escapeText, italic } from '../markdown/inline';

/** Destinations whose content is not document text. */
const SKIP = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'footer',
  'headerl',
  'headerr',
  'footerl',
  'footerr',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'pgdsctbl',
  'filetbl',
  'revtbl',
  'fldinst',
  'bkmkstart',
  'bkmkend',
  'field-inst',
]);

interface State {
  skip: boolean;
  bold: boolean;
  italic: boolean;
  uc: number;
  codepage: string;
}

/**
 * RTF: a small tokenizer over control words and groups: paragraphs, bold/italic runs, tables
 * (\\cell, \\row), \\'hh bytes decoded through the document's code page, \\uN Unicode escapes
 * with their \\ucN fallback skipped, metadata from the info group.
 */
export const rtfConverter: Converter = {
  name: 'rtf',
  extensions: ['rtf'],
  async convert(input) {
    const src = input.toString('latin1');
    if (!src.startsWith('{\\rtf'))
      throw new ConversionError('corrupt_file', 'The file is not RTF (it does not start with {\\rtf).');
    const ansi = /\\ansicpg(\d+)/.exec(src)?.[1];
    const codepage = ansi && iconv.encodingExists(`cp${ansi}`) ? `cp${ansi}` : 'cp1252';
    const blocks: Block[] = [];
    let para = '';
    let run = '';
    let runStyle = { bold: false, italic: false };
    let bytes: number[] = [];
    let cells: string[] = [];
    let rows: string[][] = [];
    let inRow = false;
    const stack: State[] = [];
    let st: State = { skip: false, bold: false, italic: false, uc: 1, codepage };
    let skipChars = 0;
    const flushBytes = (): void => {
      if (bytes.length) run += iconv.decode(Buffer.from(bytes), st.codepage);
      bytes = [];
    };
    const flushRun = (): void => {
      flushBytes();
      if (run) {
        let md = escapeText(run);
        if (runStyle.bold && md.trim()) md = bold(md);
        if (runStyle.italic && md.trim()) md = italic(md);
        para += md;
      }
      run = '';
      runStyle = { bold: st.bold, italic: st.italic };
    };
    const endParagraph = (): void => {
      flushRun();
      const text = para.replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ type: 'paragraph', text });
      para = '';
    };
    const flushTable = (): void => {
      if (rows.length) blocks.push({ type: 'table', rows });
      rows = [];
    };
    const meta: Record<string, string> = {};
    let metaField = '';
    let i = 0;
    while (i < src.length) {
      const ch = src[i]!;
      if (ch === '{') {
        flushRun();
        stack.push({ ...st });
        i++;
        continue;
      }
      if (ch === '}') {
        flushRun();
        st = stack.pop() ?? st;
        runStyle = { bold: st.bold, italic: st.italic };
        metaField = st.skip ? metaField : '';
        i++;
        continue;
      }
      if (ch === '\\') {
        const next = src[i + 1] ?? '';
        if (next === "'") {
          const hex = src.slice(i + 2, i + 4);
          if (skipChars > 0) skipChars--;
          else if (!st.skip) bytes.push(parseInt(hex, 16));
          else if (metaField)
            meta[metaField] = (meta[metaField] ?? '') + iconv.decode(Buffer.from([parseInt(hex, 16)]), st.codepage);
          i += 4;
          continue;
        }
        if (next === '*') {
          st.skip = true;
          i += 2;
          continue;
        }
        if (!/[a-z]/i.test(next)) {
          if (!st.skip) {
            flushBytes();
            if (next === '~') run += '\u00a0';
            else if (next === '\n' || next === '\r') {
              endParagraph();
            } else if (next === '\\' || next === '{' || next === '}') run += next;
          }
          i += 2;
          continue;
        }
        const m = /^\\([a-z]+)(-?\d+)? ?/i.exec(src.slice(i, i + 40))!;
        const word = m[1]!;
        const param = m[2] !== undefined ? Number(m[2]) : undefined;
        i += m[0].length;
        if (SKIP.has(word)) {
          if (word === 'info') metaField = '';
          st.skip = true;
          if (word !== 'info') continue;
        }
        if (['title', 'author', 'subject'].includes(word) && stack.some(() => true)) {
          metaField = word;
          st.skip = true;
          continue;
        }
        if (st.skip) continue;
        switch (word) {
          case 'par':
          case 'line':
          case 'sect':
          case 'page':
            if (cells.length || rows.length) para += ' ';
            else endParagraph();
            break;
          case 'pard':
            break;
          case 'tab':
            run += ' ';
            break;
          case 'b':
            flushRun();
            st.bold = param !== 0;
            runStyle.bold = st.bold;
            break;
          case 'i':
            flushRun();
            st.italic = param !== 0;
            runStyle.italic = st.italic;
            break;
          case 'plain':
            flushRun();
            st.bold = false;
            st.italic = false;
            runStyle = { bold: false, italic: false };
            break;
          case 'uc':
            st.uc = param ?? 1;
            break;
          case 'u': {
            flushBytes();
            const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
            run += String.fromCharCode(code);
            skipChars = st.uc;
            break;
          }
          case 'cell':
            flushRun();
            cells.push(para.replace(/\s+/g, ' ').trim());
            para = '';
            break;
          case 'row':
            rows.push(cells);
            cells = [];
            inRow = false;
            break;
          case 'trowd':
            if (para.trim() && !rows.length) endParagraph();
            inRow = true;
            break;
          case 'intbl':
            inRow = true;
            break;
          default:
            break;
        }
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        i++;
        continue;
      }
      if (skipChars > 0) {
        skipChars--;
        i++;
        continue;
      }
      if (st.skip) {
        if (metaField) meta[metaField] = (meta[metaField] ?? '') + ch;
      } else {
        // Text after the last row ends the table.
        if (rows.length && !inRow && ch.trim()) flushTable();
        flushBytes();
        if (runStyle.bold !== st.bold || runStyle.italic !== st.italic) flushRun();
        run += ch;
      }
      i++;
    }
    endParagraph();
    flushTable();
    return {
      markdown: renderMarkdown(blocks),
      metadata: { title: (meta.title ?? '').trim(), author: (meta.author ?? '').trim(), page_count: 0 },
    };
  },
};
