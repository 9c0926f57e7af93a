import type { PDFContext, PDFDict, PDFObject } from 'pdf-lib';
import { decode, inherited } from './content-rules';
import { pdfLib, pdfName, type PdfObjects } from './objects';

/**
 * Operators that can put something OCR could read on a page: fills (text turned into outlines is filled shapes),
 * shadings, pictures (inline or not), text, and annotations drawn by the page's form XObjects are looked into.
 */
const MARKING = /^(?:f\*?|F|B\*?|b\*?|sh|BI|Tj|TJ|'|"|d0|d1)$/;
const STROKE = /^[Ss]$/;
/** Form XObjects nested deeper than this, or more of them than this, leave the page in doubt. */
const MAX_FORM_DEPTH = 12;
const MAX_FORMS = 200;
/** Operators and names of a content stream: runs of regular characters (strings and arrays hold no operator we act on). */
const TOKEN = /\/?[^\s/[\]()<>{}%]+/g;

/**
 * Whether the page draws nothing but stroked lines (rules, a grid, a line drawing): no text, no picture, no
 * filled shape. OCR finds no letters in strokes, only noise (a dashed grid read as "vw N 1 | ア"), so such a page
 * without a text layer is not read from its image. False when anything is in doubt.
 */
export function drawsOnlyStrokes(objects: PdfObjects, pageNumber: number): boolean {
  const page = objects.page(pageNumber);
  if (!page) return false;
  const { context } = objects;
  try {
    if (context.lookup(page.get(pdfName('Annots'))) !== undefined) return false;
    const contents = context.lookup(inherited(context, page, 'Contents', false));
    const streams =
      contents instanceof pdfLib().PDFArray ? contents.asArray().map((s) => context.lookup(s)) : [contents];
    const resources = context.lookup(inherited(context, page, 'Resources', true));
    const state = { strokes: 0, forms: 0 };
    for (const stream of streams) {
      if (!(stream instanceof pdfLib().PDFRawStream)) return false;
      if (!onlyStrokes(context, decode(stream), asDict(resources), state, 0)) return false;
    }
    return state.strokes > 0;
  } catch {
    return false;
  }
}

function asDict(value: PDFObject | undefined): PDFDict | undefined {
  return value instanceof pdfLib().PDFDict ? value : undefined;
}

function onlyStrokes(
  context: PDFContext,
  bytes: Uint8Array,
  resources: PDFDict | undefined,
  state: { strokes: number; forms: number },
  depth: number,
): boolean {
  let name: string | undefined;
  for (const [token] of Buffer.from(bytes).toString('latin1').matchAll(TOKEN)) {
    if (token.startsWith('/')) {
      name = token.slice(1);
      continue;
    }
    if (MARKING.test(token)) return false;
    if (STROKE.test(token)) state.strokes++;
    else if (token === 'Do' && !formOnlyStrokes(context, name, resources, state, depth)) return false;
  }
  return true;
}

/** `Do`: a form XObject that itself draws only strokes passes; a picture, or anything unknown, does not. */
function formOnlyStrokes(
  context: PDFContext,
  name: string | undefined,
  resources: PDFDict | undefined,
  state: { strokes: number; forms: number },
  depth: number,
): boolean {
  if (!name || depth >= MAX_FORM_DEPTH || ++state.forms > MAX_FORMS) return false;
  const xobjects = asDict(context.lookup(resources?.get(pdfName('XObject'))));
  const xobject = context.lookup(xobjects?.get(pdfLib().PDFName.of(name)));
  if (!(xobject instanceof pdfLib().PDFRawStream)) return false;
  if (xobject.dict.get(pdfName('Subtype')) !== pdfName('Form')) return false;
  const own = asDict(context.lookup(xobject.dict.get(pdfName('Resources'))));
  return onlyStrokes(context, decode(xobject), own ?? resources, state, depth + 1);
}
