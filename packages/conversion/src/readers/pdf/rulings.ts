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

export type Matrix = [number, number, number, number, number, number];
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

/**
 * Turns path operators, in the order a content stream draws them, into rules: rectangles, moves and
 * lines are kept in page space until a paint operator decides (a stroke keeps every edge, a fill only
 * boxes thin enough to be rules). Both rules sources (pdf.js's operator list, the content scanner)
 * feed it, so they agree by construction on what counts as a rule.
 */
export class RuleCollector {
  readonly rules: Rule[] = [];
  // Saved matrices. It starts with IDENTITY, which a restore past the last save returns anyway: an empty array is made
  // for numbers, and V8 dropped the optimised scanner at the first save of every worker to learn it holds arrays.
  private readonly stack: Matrix[] = [IDENTITY];
  private ctm: Matrix = IDENTITY;
  // Segments (x0, y0, x1, y1) and filled boxes (left, bottom, right, top) of the path being built, in page space,
  // four numbers each in flat arrays reused from path to path (the first segmentEnd / boxEnd entries are the path's;
  // emptying an array would free its storage): a tuple per point and per segment was most of the rules step's garbage.
  private readonly segments: number[] = [];
  private readonly boxes: number[] = [];
  private segmentEnd = 0;
  private boxEnd = 0;
  private cx = 0;
  private cy = 0;

  /** vx, vy: the page's view origin (rules are measured from its bottom-left corner). */
  constructor(
    private readonly vx: number,
    private readonly vy: number,
  ) {}

  save(): void {
    this.stack.push(this.ctm);
  }

  restore(): void {
    this.ctm = this.stack.pop() ?? IDENTITY;
  }

  transform(m: Matrix): void {
    this.ctm = multiply(this.ctm, m);
  }

  /** A form XObject starts: the state is saved and its /Matrix (when valid) applies inside it. */
  beginForm(matrix: Matrix | undefined): void {
    this.save();
    if (matrix) this.transform(matrix);
  }

  endForm(): void {
    this.restore();
  }

  /** A run of path operators starts (pdf.js's constructPath): the current point is back at the origin. */
  beginPath(): void {
    this.cx = 0;
    this.cy = 0;
  }

  rectangle(x: number, y: number, w: number, h: number): void {
    const m = this.ctm;
    const ax = m[0] * x + m[2] * y + m[4];
    const ay = m[1] * x + m[3] * y + m[5];
    const bx = m[0] * (x + w) + m[2] * (y + h) + m[4];
    const by = m[1] * (x + w) + m[3] * (y + h) + m[5];
    const b = this.boxes;
    const i = this.boxEnd;
    b[i] = Math.min(ax, bx);
    b[i + 1] = Math.min(ay, by);
    b[i + 2] = Math.max(ax, bx);
    b[i + 3] = Math.max(ay, by);
    this.boxEnd = i + 4;
  }

  moveTo(x: number, y: number): void {
    const m = this.ctm;
    this.cx = m[0] * x + m[2] * y + m[4];
    this.cy = m[1] * x + m[3] * y + m[5];
  }

  lineTo(x: number, y: number): void {
    const m = this.ctm;
    const nx = m[0] * x + m[2] * y + m[4];
    const ny = m[1] * x + m[3] * y + m[5];
    const s = this.segments;
    const i = this.segmentEnd;
    s[i] = this.cx;
    s[i + 1] = this.cy;
    s[i + 2] = nx;
    s[i + 3] = ny;
    this.segmentEnd = i + 4;
    this.cx = nx;
    this.cy = ny;
  }

  /** Stroke (alone or with a fill): every segment and every box edge. */
  stroke(): void {
    const { segments: s, boxes: b } = this;
    for (let i = 0; i < this.segmentEnd; i += 4) this.addSegment(s[i]!, s[i + 1]!, s[i + 2]!, s[i + 3]!);
    for (let i = 0; i < this.boxEnd; i += 4) {
      const x0 = b[i]!;
      const y0 = b[i + 1]!;
      const x1 = b[i + 2]!;
      const y1 = b[i + 3]!;
      this.addSegment(x0, y0, x1, y0);
      this.addSegment(x0, y1, x1, y1);
      this.addSegment(x0, y0, x0, y1);
      this.addSegment(x1, y0, x1, y1);
    }
    this.endPath();
  }

  /** Fill: only boxes thin enough to be a rule. */
  fill(): void {
    const b = this.boxes;
    for (let i = 0; i < this.boxEnd; i += 4) {
      const x0 = b[i]!;
      const y0 = b[i + 1]!;
      const x1 = b[i + 2]!;
      const y1 = b[i + 3]!;
      if (y1 - y0 <= MAX_RULE_THICKNESS) this.addSegment(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
      else if (x1 - x0 <= MAX_RULE_THICKNESS) this.addSegment((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    }
    this.endPath();
  }

  endPath(): void {
    this.segmentEnd = 0;
    this.boxEnd = 0;
  }

  private addSegment(x0: number, y0: number, x1: number, y1: number): void {
    const { vx, vy } = this;
    const dx = Math.abs(x1 - x0);
    const dy = Math.abs(y1 - y0);
    if (dy < 0.5 && dx >= MIN_RULE_LENGTH)
      this.rules.push({ horizontal: true, at: y0 - vy, from: Math.min(x0, x1) - vx, to: Math.max(x0, x1) - vx });
    else if (dx < 0.5 && dy >= MIN_RULE_LENGTH)
      this.rules.push({ horizontal: false, at: x0 - vx, from: Math.min(y0, y1) - vy, to: Math.max(y0, y1) - vy });
  }
}

/**
 * The straight horizontal and vertical rules drawn on the given page, from pdf.js's operator list
 * (constructPath with rectangle/moveTo/lineTo, then the stroke or fill that paints it). The general
 * source: fonts, glyphs and the whole list are built, so the content scanner (content-rules.ts) is
 * tried first and this serves what it leaves.
 */
export async function pageRules(doc: PdfJsDocument, pageNumber: number): Promise<Rule[]> {
  const { OPS } = await loadPdfJs();
  const page = await doc.getPage(pageNumber);
  const [vx, vy] = page.view as [number, number, number, number];
  const list = await page.getOperatorList();
  const rules = new RuleCollector(vx, vy);
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save:
        rules.save();
        break;
      case OPS.restore:
        rules.restore();
        break;
      case OPS.transform:
        rules.transform(args as Matrix);
        break;
      case OPS.paintFormXObjectBegin:
        rules.beginForm(Array.isArray(args[0]) ? (args[0] as Matrix) : undefined);
        break;
      case OPS.paintFormXObjectEnd:
        rules.endForm();
        break;
      case OPS.constructPath: {
        const [ops, coords] = args as [number[], number[]];
        let j = 0;
        rules.beginPath();
        for (const op of ops) {
          if (op === OPS.rectangle) {
            rules.rectangle(coords[j]!, coords[j + 1]!, coords[j + 2]!, coords[j + 3]!);
            j += 4;
          } else if (op === OPS.moveTo) {
            rules.moveTo(coords[j]!, coords[j + 1]!);
            j += 2;
          } else if (op === OPS.lineTo) {
            rules.lineTo(coords[j]!, coords[j + 1]!);
            j += 2;
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
        rules.stroke();
        break;
      case OPS.fill:
      case OPS.eoFill:
        rules.fill();
        break;
      case OPS.endPath:
        rules.endPath();
        break;
    }
  }
  page.cleanup();
  return rules.rules;
}
