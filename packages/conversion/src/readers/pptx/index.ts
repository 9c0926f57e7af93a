import type { Element } from '@xmldom/xmldom';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { noPageSelected, selectedPages } from '../../page-range';
import { SafeZip } from '../../archive/safe-zip';
import { ooxmlProperties, parseXml } from '../shared/office-properties';
import { attr, child, children, descendants, relAttr } from '../shared/xml-dom';
import { text as plain, type Block, type Inline } from '../../document/model';
import { PictureReader, picturePlaceholder } from '../shared/ocr/pictures';
import { imageAltText } from '../shared/alt-text';
import { chartBlocks, relationships } from '../shared/ooxml-parts';
import { embeddedObjectBlocks } from '../shared/ole-objects';
import { diagramNodes } from '../shared/smartart';
import { CODE_CHARS, MONOSPACE } from '../shared/code-paragraphs';
import { ommlToLatex } from '../shared/omml';
import { inSymbolFont, symbolFont, symbolFontChar } from '../shared/symbol-font';
import {
  type ParagraphModel,
  paragraphsToBlocks,
  readingOrder,
  slidesToBlocks,
  type SlideBox,
  type SlideModel,
  type SlideText,
} from '../shared/slides';

interface Placed extends SlideBox {
  blocks: Block[];
  /** A text box (no placeholder) of one line: its text, and its smallest run size set (hundredths of a point). */
  line?: { text: string; size?: number };
}

/** Type at least this large (hundredths of a point) can stand as a slide's title: PowerPoint's smallest title size. */
const MIN_DRAWN_TITLE_SIZE = 2400;

/** PPTX: slides in presentation order, shapes by position, placeholders' bullets, tables, images' alt text, charts' titles, notes. */
export const pptxReader: Reader = {
  name: 'pptx',
  async read(input, options) {
    const zip = new SafeZip(input, 'PPTX file');
    const presentation = zip.textOf('ppt/presentation.xml');
    if (!presentation) {
      throw new ConversionError(
        zip.has('EncryptedPackage') ? 'encrypted_file' : 'corrupt_file',
        zip.has('EncryptedPackage')
          ? 'The PPTX file is password-protected.'
          : 'The PPTX file has no presentation part.',
      );
    }
    const rels = relationships(zip, 'ppt/presentation.xml');
    const presentationDoc = parseXml(presentation, 'presentation');
    const ids = descendants(presentationDoc, 'sldId').map((el) => relAttr(el) ?? '');
    // Shapes whose tops differ by less than a 48th of the slide's height read as one row, left to right.
    const tolerance = (Number(attr(descendants(presentationDoc, 'sldSz')[0], 'cy')) || 6858000) / 48;
    const slides: SlideModel[] = [];
    // Placeholder boxes of each slide layout (and its master), read once for the deck.
    const layouts = new Map<string, Map<string, SlideBox>>();
    const authors = commentAuthors(zip);
    // Enhanced mode reads the text inside the slides' pictures (screenshots, scanned handouts).
    const reader = options.enhanced ? new PictureReader() : undefined;
    const targets = ids.map((rid) => rels.get(rid)).filter((t): t is string => !!t);
    // E2: slides outside the page range are not parsed.
    const range = options.pageRange;
    const numbers = selectedPages(range, targets.length);
    if (range && !numbers.length) throw noPageSelected(targets.length);
    for (const number of numbers) {
      const target = targets[number - 1]!;
      const pictures = reader ? await slidePictureText(zip, target, reader) : undefined;
      slides.push({
        ...readSlide(zip, target, tolerance, layouts, pictures),
        comments: slideComments(zip, target, authors),
        number,
      });
    }
    const props = ooxmlProperties(zip);
    return {
      blocks: slidesToBlocks(slides),
      metadata: {
        title: props.title,
        author: props.author,
        page_count: targets.length,
      },
      pages: numbers,
    };
  },
};

/** OCR text of each picture the slide links to, by part name. */
async function slidePictureText(zip: SafeZip, part: string, reader: PictureReader): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const target of relationships(zip, part).values()) {
    if (/\/media\/[^/]+\.(png|jpe?g|gif|bmp|tiff?|webp)$/i.test(target) && !out.has(target)) {
      out.set(target, await reader.text(target, () => zip.bytesOf(target)));
    }
  }
  return out;
}

function readSlide(
  zip: SafeZip,
  part: string,
  tolerance: number,
  layouts: Map<string, Map<string, SlideBox>>,
  pictures?: Map<string, string>,
): SlideModel {
  const xml = zip.textOf(part);
  if (!xml) return { title: '', blocks: [], notes: [] };
  const doc = parseXml(xml, 'slide');
  const rels = relationships(zip, part);
  const tree = descendants(doc, 'spTree')[0];
  let title = '';
  const placed: Placed[] = [];
  // Read only when a placeholder sets no position of its own; one reading per layout for the deck.
  let inherited: Map<string, SlideBox> | undefined;
  const layoutBox = (shape: Element): SlideBox | undefined => {
    const layout = [...rels.values()].find((t) => /slideLayouts\/[^/]+\.xml$/.test(t)) ?? '';
    inherited ??= layouts.get(layout) ?? layouts.set(layout, layoutPlaceholders(zip, layout)).get(layout)!;
    return inheritedBox(shape, inherited);
  };
  const visit = (container: Element | undefined, map: Mapping): void => {
    for (const shape of children(container)) {
      if (shape.localName === 'AlternateContent') {
        // Shapes of newer kinds (a text box holding an equation, an Office 2016 chart) with a stand-in
        // picture for older readers: the shapes themselves, as the DOCX reader takes them. An ink
        // drawing's stand-in stays out with it.
        visit(children(shape, 'Choice')[0] ?? child(shape, 'Fallback'), map);
        continue;
      }
      const pos = map(ownBox(shape) ?? layoutBox(shape) ?? { x: 0, y: 0 });
      if (shape.localName === 'grpSp') visit(shape, groupMapping(shape, map));
      else if (shape.localName === 'sp') {
        const ph = descendants(child(shape, 'nvSpPr'), 'ph')[0];
        const phType = attr(ph, 'type') ?? (ph ? 'body' : '');
        const paragraphs = textParagraphs(
          child(shape, 'txBody'),
          phType === 'body' || phType === 'obj' || (ph !== undefined && !attr(ph, 'type')),
        );
        if ((phType === 'title' || phType === 'ctrTitle') && !title) {
          title = paragraphs
            .map((p) => p.plain)
            .join(' ')
            .trim();
          continue;
        }
        if (phType === 'sldNum' || phType === 'dt' || phType === 'ftr') continue;
        const filled = paragraphs.filter((p) => p.plain.trim());
        const line =
          !ph && filled.length === 1 && filled[0]!.bullet === 'none' && typeof filled[0]!.text === 'string'
            ? { text: filled[0]!.plain.trim(), size: smallestRunSize(child(shape, 'txBody')) }
            : undefined;
        const code = phType === 'title' || phType === 'ctrTitle' ? undefined : codeText(child(shape, 'txBody'));
        const blocks: Block[] = code ? [{ type: 'code', text: code }] : paragraphsToBlocks(paragraphs);
        placed.push({ ...pos, blocks, line: code ? undefined : line });
      } else if (shape.localName === 'graphicFrame') {
        const table = descendants(shape, 'tbl')[0];
        if (table) placed.push({ ...pos, blocks: [{ type: 'table', rows: tableRows(table) }] });
        const chart = descendants(shape, 'chart')[0];
        const chartPart = chart && rels.get(relAttr(chart) ?? '');
        if (chartPart) placed.push({ ...pos, blocks: chartBlocks(zip, chartPart) });
        // An OLE chart or worksheet (MS Graph, Excel 97: decks saved from PPT keep them) reads as a PPT's does.
        const ole = descendants(shape, 'oleObj')[0];
        const olePart = ole && rels.get(relAttr(ole) ?? '');
        const storage = olePart && /\.bin$/i.test(olePart) ? zip.bytesOf(olePart) : undefined;
        if (storage) {
          const blocks = embeddedObjectBlocks({
            progId: attr(ole, 'progId') ?? '',
            storage: Buffer.from(storage),
            compressed: false,
          });
          if (blocks.length) placed.push({ ...pos, blocks });
        }
        const diagram = rels.get(relAttr(descendants(shape, 'relIds')[0], 'dm') ?? '');
        if (diagram) {
          const nodes = diagramNodes(zip, diagram);
          placed.push({ ...pos, blocks: paragraphsToBlocks(nodes.map((n) => ({ ...n, bullet: 'bullet' }))) });
        }
      } else if (shape.localName === 'pic') {
        const nv = descendants(shape, 'cNvPr')[0];
        const alt = imageAltText(attr(nv, 'descr'), attr(nv, 'title'), attr(nv, 'name'));
        const embedded = rels.get(relAttr(descendants(shape, 'blip')[0], 'embed') ?? '');
        const text = embedded ? pictures?.get(embedded) : undefined;
        placed.push({ ...pos, picture: true, blocks: [{ type: 'paragraph', text: picturePlaceholder(alt, text) }] });
      }
    }
  };
  visit(tree, (box) => box);
  const notesPart = [...rels.values()].find((t) => /notesSlide\d*\.xml$/.test(t));
  const notes: SlideModel['notes'] = [];
  if (notesPart) {
    const nx = zip.textOf(notesPart);
    if (nx) {
      for (const sp of descendants(parseXml(nx, 'notes'), 'sp')) {
        const ph = descendants(sp, 'ph')[0];
        if (attr(ph, 'type') !== 'body') continue;
        notes.push(...textParagraphs(child(sp, 'txBody'), false).map((p) => p.plain));
      }
    }
  }
  const ordered = readingOrder(
    placed.filter((p) => p.blocks.length),
    tolerance,
  );
  const drawn = title ? undefined : drawnTitle(ordered);
  if (drawn) title = drawn.line!.text;
  return { title, blocks: ordered.filter((p) => p !== drawn).flatMap((p) => p.blocks), notes };
}

/**
 * The title of a slide without a title placeholder (decks written by pptxgenjs and other
 * libraries draw it as a text box): its first shape other than pictures, when that is a one-line
 * text box set in title type, no smaller than any text set on the slide.
 */
function drawnTitle(ordered: Placed[]): Placed | undefined {
  // Pictures above it (a logo in the corner) are not text: the first shape with text is.
  const first = ordered.find((p) => p.blocks.length && !p.picture);
  const size = first?.line?.size;
  if (size === undefined || size < MIN_DRAWN_TITLE_SIZE) return undefined;
  return ordered.every((p) => p === first || (p.line?.size ?? 0) <= size) ? first : undefined;
}

/** The smallest run size a text body sets (`a:rPr sz`), undefined when none is set. */
function smallestRunSize(body: Element | undefined): number | undefined {
  let smallest: number | undefined;
  for (const r of descendants(body, 'rPr')) {
    const size = Number(attr(r, 'sz'));
    if (size > 0 && !(size >= (smallest ?? Infinity))) smallest = size;
  }
  return smallest;
}

/** Comment authors by id: classic comments' (commentAuthors.xml) and modern threaded comments' (authors.xml). */
function commentAuthors(zip: SafeZip): Map<string, string> {
  const out = new Map<string, string>();
  for (const [part, tag] of [
    ['ppt/commentAuthors.xml', 'cmAuthor'],
    ['ppt/authors.xml', 'author'],
  ] as const) {
    const xml = zip.textOf(part);
    if (!xml) continue;
    for (const a of descendants(parseXml(xml, 'comment authors'), tag))
      out.set(attr(a, 'id') ?? '', attr(a, 'name') ?? '');
  }
  return out;
}

/** The slide's comments: classic (p:cm with p:text) and modern threaded ones (text body, then its replies). */
function slideComments(zip: SafeZip, part: string, authors: Map<string, string>): SlideModel['comments'] {
  const out: NonNullable<SlideModel['comments']> = [];
  const text = (el: Element | undefined): string =>
    child(el, 'text')?.textContent?.trim() ??
    descendants(child(el, 'txBody'), 'p')
      .map((p) =>
        descendants(p, 't')
          .map((t) => t.textContent ?? '')
          .join(''),
      )
      .join(' ')
      .trim();
  for (const target of relationships(zip, part).values()) {
    if (!/\/comments\/[^/]+\.xml$/i.test(target)) continue;
    const xml = zip.textOf(target);
    if (!xml) continue;
    for (const cm of descendants(parseXml(xml, 'comments'), 'cm')) {
      out.push({ author: authors.get(attr(cm, 'authorId') ?? '') ?? '', text: text(cm) });
      for (const reply of descendants(child(cm, 'replyLst'), 'reply')) {
        out.push({ author: authors.get(attr(reply, 'authorId') ?? '') ?? '', text: text(reply) });
      }
    }
  }
  return out;
}

/** Maps a box in a group's child coordinates onto the slide. */
type Mapping = (box: SlideBox) => SlideBox;

/** A shape's own box (`a:xfrm` offset and extent), undefined when it sets none (a placeholder placed by its layout). */
function ownBox(shape: Element): SlideBox | undefined {
  const xfrm =
    child(child(shape, shape.localName === 'grpSp' ? 'grpSpPr' : 'spPr'), 'xfrm') ?? descendants(shape, 'xfrm')[0];
  const off = child(xfrm, 'off');
  if (!off) return undefined;
  const ext = child(xfrm, 'ext');
  return {
    x: Number(attr(off, 'x') ?? 0),
    y: Number(attr(off, 'y') ?? 0),
    w: Number(attr(ext, 'cx') ?? 0) || undefined,
    h: Number(attr(ext, 'cy') ?? 0) || undefined,
  };
}

/** A group's mapping: its children's boxes are in its child space (`a:chOff`, `a:chExt`), scaled onto its own box. */
function groupMapping(group: Element, outer: Mapping): Mapping {
  const xfrm = child(child(group, 'grpSpPr'), 'xfrm');
  const off = child(xfrm, 'off');
  const ext = child(xfrm, 'ext');
  const chOff = child(xfrm, 'chOff');
  const chExt = child(xfrm, 'chExt');
  if (!off || !ext || !chOff || !chExt) return outer;
  const num = (el: Element, name: string): number => Number(attr(el, name) ?? 0);
  const sx = num(chExt, 'cx') > 0 ? num(ext, 'cx') / num(chExt, 'cx') : 1;
  const sy = num(chExt, 'cy') > 0 ? num(ext, 'cy') / num(chExt, 'cy') : 1;
  return (box) =>
    outer({
      x: num(off, 'x') + (box.x - num(chOff, 'x')) * sx,
      y: num(off, 'y') + (box.y - num(chOff, 'y')) * sy,
      w: box.w === undefined ? undefined : box.w * sx,
      h: box.h === undefined ? undefined : box.h * sy,
    });
}

/** Boxes of the placeholders on a slide's layout and its master, by `idx:N` and `type:T`, the layout's first. */
function layoutPlaceholders(zip: SafeZip, layout: string): Map<string, SlideBox> {
  const out = new Map<string, SlideBox>();
  if (!layout) return out;
  const master = layout && [...relationships(zip, layout).values()].find((t) => /slideMasters\/[^/]+\.xml$/.test(t));
  for (const part of [layout, master]) {
    const xml = part && zip.textOf(part);
    const doc = xml ? layoutDocument(xml) : undefined;
    if (!doc) continue;
    for (const sp of descendants(doc, 'sp')) {
      const ph = descendants(child(sp, 'nvSpPr'), 'ph')[0];
      const box = ph && ownBox(sp);
      if (!ph || !box) continue;
      for (const key of placeholderKeys(ph)) if (!out.has(key)) out.set(key, box);
    }
  }
  return out;
}

/**
 * A layout or master part, or none when it is not well-formed XML (PHPPresentation wrote a master
 * with a tag left open): it only lends placeholders their boxes, so the slides are read without
 * them rather than the deck refused. Entity declarations are still refused.
 */
function layoutDocument(xml: string): ReturnType<typeof parseXml> | undefined {
  try {
    return parseXml(xml, 'slide layout');
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    return undefined;
  }
}

/** How a placeholder is matched to its layout's: by index, then by type (no type is a body). */
function placeholderKeys(ph: Element): string[] {
  const idx = attr(ph, 'idx');
  const type = attr(ph, 'type') ?? 'body';
  return [...(idx ? [`idx:${idx}`] : []), `type:${type === 'ctrTitle' ? 'title' : type}`];
}

/** The box a placeholder without its own takes from its layout or master. */
function inheritedBox(shape: Element, inherited: Map<string, SlideBox>): SlideBox | undefined {
  const ph = descendants(
    child(shape, 'nvSpPr') ?? child(shape, 'nvGraphicFramePr') ?? child(shape, 'nvPicPr'),
    'ph',
  )[0];
  if (!ph) return undefined;
  for (const key of placeholderKeys(ph)) {
    const box = inherited.get(key);
    if (box) return box;
  }
  return undefined;
}

/**
 * Paragraphs of a text body, as plain text; in body placeholders paragraphs are bullets unless
 * marked buNone. A numbered paragraph keeps the number its list starts at (`buAutoNum startAt`).
 * A paragraph holding an equation (`a14:m`, Office math) is inline nodes, the equation as TeX;
 * `plain` is its text either way (the equation's TeX), for titles and notes.
 */
function textParagraphs(
  body: Element | undefined,
  bulletsByDefault: boolean,
): Array<ParagraphModel & { plain: string }> {
  return children(body, 'p').map((p) => {
    const pPr = child(p, 'pPr');
    const level = Number(attr(pPr, 'lvl') ?? 0);
    const parts = paragraphParts(children(p));
    const joined = (part: (typeof parts)[number]) => (typeof part === 'string' ? part : part.tex);
    const plain = parts
      .map(joined)
      .join('')
      .replace(/\s*\n\s*/g, ' ');
    const text: SlideText = parts.some((part) => typeof part !== 'string')
      ? parts.map((part): Inline =>
          typeof part === 'string' ? { type: 'text', text: part.replace(/\s*\n\s*/g, ' ') } : { type: 'math', ...part },
        )
      : plain;
    let bullet: ParagraphModel['bullet'] = bulletsByDefault ? 'bullet' : 'none';
    let start: number | undefined;
    const autoNum = child(pPr, 'buAutoNum');
    if (child(pPr, 'buNone')) bullet = 'none';
    else if (autoNum) {
      bullet = 'number';
      const at = Number(attr(autoNum, 'startAt'));
      if (Number.isInteger(at) && at > 1) start = at;
    } else if (child(pPr, 'buChar') || child(pPr, 'buBlip')) bullet = 'bullet';
    return { text, plain, level, bullet, ...(start !== undefined && { start }) };
  });
}

/**
 * A run's text as drawn when its font is a symbol font: all of it when its Latin font is Symbol or
 * Wingdings (a check mark typed as "ü"), its private-use codes when only its symbol font is
 * (`a:sym`, which PowerPoint draws those codes in).
 */
function runSymbols(r: Element, text: string): string {
  const rPr = child(r, 'rPr');
  const latin = symbolFont(attr(child(rPr, 'latin'), 'typeface'));
  if (latin) return inSymbolFont(text, latin);
  const sym = symbolFont(attr(child(rPr, 'sym'), 'typeface'));
  return sym ? text.replace(/[\uf020-\uf0ff]/g, (c) => symbolFontChar(c.charCodeAt(0), sym) ?? '') : text;
}

/** A paragraph's runs, line breaks and fields as text, and its equations (`a14:m`) as TeX. */
function paragraphParts(nodes: Element[]): Array<string | { tex: string; display: boolean }> {
  return nodes.flatMap((r): Array<string | { tex: string; display: boolean }> => {
    if (r.localName === 'br') return ['\n'];
    if (r.localName === 'r' || r.localName === 'fld')
      return [
        runSymbols(
          r,
          descendants(r, 't')
            .map((t) => t.textContent ?? '')
            .join(''),
        ),
      ];
    if (r.localName === 'AlternateContent')
      return paragraphParts(children(children(r, 'Choice')[0] ?? child(r, 'Fallback')));
    if (r.localName === 'm') {
      const math = descendants(r, 'oMathPara')[0] ?? descendants(r, 'oMath')[0];
      const tex = math ? ommlToLatex(math) : '';
      return tex ? [{ tex, display: math!.localName === 'oMathPara' }] : [];
    }
    return [];
  });
}

/**
 * A text box set all in a monospaced face whose text reads as code (a listing on a lecture slide):
 * its lines, spaces kept. Undefined for anything else, a box of prose in a typewriter face included.
 */
function codeText(body: Element | undefined): string | undefined {
  const runs = descendants(body, 'r').filter((r) => descendants(r, 't').some((t) => t.textContent?.trim()));
  if (!runs.length) return undefined;
  if (!runs.every((r) => MONOSPACE.test(attr(child(child(r, 'rPr'), 'latin'), 'typeface') ?? ''))) return undefined;
  const lines = children(body, 'p').flatMap((p) =>
    children(p)
      .map((r) =>
        r.localName === 'br'
          ? '\n'
          : descendants(r, 't')
              .map((t) => t.textContent ?? '')
              .join(''),
      )
      .join('')
      .split('\n'),
  );
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  while (lines.length && !lines[0]!.trim()) lines.shift();
  const code = lines.map((l) => l.trimEnd()).join('\n');
  return lines.some((l) => CODE_CHARS.test(l)) ? code : undefined;
}

/** Table cells with merged areas repeated, as a reader sees the merged value across them. */
function tableRows(table: Element): Inline[][][] {
  const rows: Inline[][][] = [];
  const vmerge: Inline[][] = [];
  for (const tr of children(table, 'tr')) {
    const row: Inline[][] = [];
    let col = 0;
    let last: Inline[] = [];
    for (const tc of children(tr, 'tc')) {
      const text = plain(
        descendants(tc, 'p')
          .map((p) =>
            descendants(p, 't')
              .map((t) => t.textContent ?? '')
              .join(''),
          )
          .join(' ')
          .trim(),
      );
      let value = [text];
      if (attr(tc, 'hMerge') === '1') value = last;
      if (attr(tc, 'vMerge') === '1') value = vmerge[col] ?? [];
      row.push(value);
      vmerge[col] = value;
      last = value;
      col++;
    }
    rows.push(row);
  }
  return rows;
}
