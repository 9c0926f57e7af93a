import { loadPdfJs, type PdfJsDocument } from './pdfjs';

/** A horizontal or vertical rule on a page, in points from the page's bottom-left corner (y grows upwards). */
export interface Rule {
  horizontal: boolean;
  /** y of a horizontal rule, x of a vertical one. */
  at: number;
  from: number;
  to: number;
}

/** Filled rectangles thinner than this are drawn rules (many producers fill a thin box instead of stroking). */
const MAX_RULE_THICKNESS = 2.5;
/** Shorter strokes are glyph parts, underlines of a letter or tick marks, not table rules. */
const MIN_RULE_LENGTH = 6;

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * The straight horizontal and vertical rules drawn on the given pages, from pdf.js's operator list
 * (constructPath with rectangle/moveTo/lineTo, then the stroke or fill that paints it).
 */
export async function pageRules(doc: PdfJsDocument, pageNumber: number): Promise<Rule[]> {
  const { OPS } = await loadPdfJs();
  const page = await doc.getPage(pageNumber);
  const [vx, vy] = page.view as [number, number, number, number];
  const list = await page.getOperatorList();
  const rules: Rule[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  // Segments and filled boxes of the path being built, in page space, until a paint operator decides.
  let segments: Array<[number, number, number, number]> = [];
  let boxes: Array<[number, number, number, number]> = [];
  const addSegment = (x0: number, y0: number, x1: number, y1: number): void => {
    const dx = Math.abs(x1 - x0);
    const dy = Math.abs(y1 - y0);
    if (dy < 0.5 && dx >= MIN_RULE_LENGTH)
      rules.push({ horizontal: true, at: y0 - vy, from: Math.min(x0, x1) - vx, to: Math.max(x0, x1) - vx });
    else if (dx < 0.5 && dy >= MIN_RULE_LENGTH)
      rules.push({ horizontal: false, at: x0 - vx, from: Math.min(y0, y1) - vy, to: Math.max(y0, y1) - vy });
  };
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push(ctm);
        break;
      case OPS.restore:
        ctm = stack.pop() ?? IDENTITY;
        break;
      case OPS.transform:
        ctm = multiply(ctm, args as Matrix);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(ctm);
        if (Array.isArray(args[0])) ctm = multiply(ctm, args[0] as Matrix);
        break;
      case OPS.paintFormXObjectEnd:
        ctm = stack.pop() ?? IDENTITY;
        break;
      case OPS.constructPath: {
        const [ops, coords] = args as [number[], number[]];
        let j = 0;
        let cx = 0;
        let cy = 0;
        for (const op of ops) {
          if (op === OPS.rectangle) {
            const [x, y, w, h] = coords.slice(j, j + 4) as [number, number, number, number];
            j += 4;
            const [ax, ay] = apply(ctm, x, y);
            const [bx, by] = apply(ctm, x + w, y + h);
            boxes.push([Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)]);
          } else if (op === OPS.moveTo) {
            [cx, cy] = apply(ctm, coords[j]!, coords[j + 1]!);
            j += 2;
          } else if (op === OPS.lineTo) {
            const [nx, ny] = apply(ctm, coords[j]!, coords[j + 1]!);
            j += 2;
            segments.push([cx, cy, nx, ny]);
            [cx, cy] = [nx, ny];
          } else if (op === OPS.curveTo) j += 6;
          else if (op === OPS.curveTo2 || op === OPS.curveTo3) j += 4;
        }
        break;
      }
      case OPS.stroke:
      case OPS.closeStroke:
      case OPS.fillStroke:
      case OPS.eoFillStroke:
      case OPS.closeFillStroke:
      case OPS.closeEOFillStroke:
        for (const [x0, y0, x1, y1] of segments) addSegment(x0, y0, x1, y1);
        for (const [x0, y0, x1, y1] of boxes) {
          addSegment(x0, y0, x1, y0);
          addSegment(x0, y1, x1, y1);
          addSegment(x0, y0, x0, y1);
          addSegment(x1, y0, x1, y1);
        }
        segments = [];
        boxes = [];
        break;
      case OPS.fill:
      case OPS.eoFill:
        for (const [x0, y0, x1, y1] of boxes) {
          if (y1 - y0 <= MAX_RULE_THICKNESS) addSegment(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
          else if (x1 - x0 <= MAX_RULE_THICKNESS) addSegment((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
        }
        segments = [];
        boxes = [];
        break;
      case OPS.endPath:
        segments = [];
        boxes = [];
        break;
    }
  }
  page.cleanup();
  return rules;
}
