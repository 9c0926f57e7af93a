/** The type a stylesheet gives a class: size in points, weight, slant, family, colour and strike-through. */
export interface ClassFont {
  size?: number;
  bold?: boolean;
  italic?: boolean;
  family?: string;
  color?: string;
  /** Struck through (`text-decoration: line-through`); false where a decoration is set without it. */
  strike?: boolean;
}

/** Sizes in other units, in points; relative sizes are taken on the usual 12 pt body. */
export const BODY_POINTS = 12;
const POINTS_PER_UNIT: Record<string, number> = {
  pt: 1,
  px: 0.75,
  em: BODY_POINTS,
  rem: BODY_POINTS,
  '%': BODY_POINTS / 100,
};

/** The type a list of CSS declarations (a rule's body, a `style` attribute) sets. */
export function declaredFont(declarations: string): ClassFont {
  const font: ClassFont = {};
  const value = (property: string): string | undefined =>
    new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, 'i').exec(declarations)?.[1]?.trim().toLowerCase();
  const size = /^([\d.]+)\s*(pt|px|em|rem|%)/.exec(value('font-size') ?? '');
  if (size) font.size = parseFloat(size[1]!) * POINTS_PER_UNIT[size[2]!]!;
  const weight = value('font-weight');
  if (weight) font.bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
  const slant = value('font-style');
  if (slant) font.italic = slant === 'italic' || slant === 'oblique';
  const family = value('font-family');
  if (family) font.family = family;
  const decoration = value('text-decoration-line') ?? value('text-decoration');
  if (decoration) font.strike = decoration.includes('line-through');
  const color = value('color');
  if (color && !/^(?:#000(?:000)?|black)$/.test(color)) font.color = color;
  return font;
}

/**
 * The type of a stylesheet's class rules (`.name`, `p.name`, one class per selector), added to
 * `into`: what LibreOffice's EPUB and Google Docs' HTML write, each run's look in its own class.
 */
export function readClassFonts(css: string, into: Map<string, ClassFont>): void {
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g);
  for (const [, selectors, body] of rules) {
    const font = declaredFont(body!);
    if (!Object.keys(font).length) continue;
    for (const selector of selectors!.split(',')) {
      const name = /^\s*[a-z]*\.([\w-]+)\s*$/i.exec(selector)?.[1];
      if (name) into.set(name, { ...into.get(name), ...font });
    }
  }
}
