import type { TextItem } from './layout';
import type { PdfJsDocument } from './pdfjs';

interface WidgetData {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  checkBox?: boolean;
  radioButton?: boolean;
  pushButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
  hidden?: boolean;
  rect?: number[];
}

export const CHECKED = '☒';
export const UNCHECKED = '☐';

/** What a filled field shows: its text or choices, or a ticked or empty box; '' for buttons and empty fields. */
function shownValue(w: WidgetData): string {
  if (w.pushButton) return '';
  if (w.checkBox)
    return w.fieldValue && w.fieldValue !== 'Off' && (!w.exportValue || w.fieldValue === w.exportValue)
      ? CHECKED
      : UNCHECKED;
  if (w.radioButton) return w.fieldValue !== undefined && w.fieldValue === w.buttonValue ? CHECKED : UNCHECKED;
  const value = Array.isArray(w.fieldValue)
    ? w.fieldValue.join(', ')
    : typeof w.fieldValue === 'string'
      ? w.fieldValue
      : '';
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * A page's text items with its form fields' values (AcroForm, and XFA data pdf.js maps onto them)
 * where the fields sit, each on the line of the label beside it. A value the page already draws (the
 * field's appearance) is kept once, at the page's text size, since auto-sized field text is no heading.
 */
export async function withFormValues(
  doc: PdfJsDocument,
  pageNumber: number,
  drawn: TextItem[],
  size: number,
): Promise<TextItem[]> {
  const page = await doc.getPage(pageNumber);
  const [vx, vy] = page.view as [number, number, number, number];
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetData[];
  page.cleanup();
  // Each field's value goes right after its label: lines are built from consecutive items.
  const after = new Map<TextItem | undefined, TextItem[]>();
  const moved = new Set<TextItem>();
  const widgets = annotations.filter((w) => w.subtype === 'Widget' && !w.hidden && w.rect && w.rect.length >= 4);
  const boxes = widgets.map((w) => fieldBox(w.rect!, vx, vy));
  // What the fields draw (their values, a button's caption) is no label: labels are the page's own text.
  const pageText = drawn.filter((d) => !boxes.some((box) => insideBox(d, box)));
  widgets.forEach((w, i) => {
    const box = boxes[i]!;
    const inside = (d: TextItem): boolean => insideBox(d, box);
    const middle = (box.top + box.bottom) / 2;
    // The label on the field's row: a drawn item outside the fields whose height spans the field's middle.
    const label = pageText.find((d) => d.y <= middle && d.y + d.size >= middle);
    const y = label?.y ?? box.bottom + Math.max(0, (box.top - box.bottom - size) / 2);
    const shown = drawn.filter((d) => inside(d) && !moved.has(d));
    const text = shownValue(w);
    const value = { text, x: box.left + 2, y, width: Math.max(1, box.right - box.left - 4), size, bold: false };
    // A box's drawn tick ("✓", "4" in ZapfDingbats) is its state, which the value says; a field wrapped onto
    // several lines draws its value in parts, which would run together on the label's line.
    // A list box draws its options, of which the value is the chosen ones.
    const drawnAsValue =
      text && (w.checkBox || w.radioButton || (shown.length > 1 && (w.fieldType === 'Ch' || sameLetters(shown, text))));
    if (drawnAsValue) for (const d of shown) moved.add(d);
    const values = drawnAsValue
      ? [value]
      : text && !shown.some((d) => d.text.includes(text))
        ? [...shown, value]
        : shown;
    for (const d of values) {
      moved.add(d);
      d.size = Math.min(d.size, size);
      d.y = y;
    }
    after.set(label, [...(after.get(label) ?? []), ...values]);
  });
  const items: TextItem[] = [];
  for (const d of drawn) if (!moved.has(d)) items.push(d, ...(after.get(d) ?? []));
  items.push(...(after.get(undefined) ?? []));
  return items;
}

interface FieldBox {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/** A widget's rectangle in the page's view (its corners in either order). */
function fieldBox(rect: number[], vx: number, vy: number): FieldBox {
  const [x0, y0, x1, y1] = rect as [number, number, number, number];
  return {
    left: Math.min(x0, x1) - vx,
    right: Math.max(x0, x1) - vx,
    bottom: Math.min(y0, y1) - vy,
    top: Math.max(y0, y1) - vy,
  };
}

function insideBox(d: TextItem, box: FieldBox): boolean {
  return d.x < box.right && d.x + d.width > box.left && d.y < box.top && d.y + d.size > box.bottom;
}

/** Whether items drawn in a field spell its value, whatever the line breaks and spaces between them. */
function sameLetters(shown: TextItem[], value: string): boolean {
  const letters = (t: string): string => t.replace(/\s+/g, '');
  return letters(shown.map((d) => d.text).join('')) === letters(value);
}
