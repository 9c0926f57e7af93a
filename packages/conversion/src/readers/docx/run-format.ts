import type { Position } from '../../document/builders';
import type { RunProperties, StyleInfo } from './parts';

/** A run's formatting with its style hierarchy resolved: on or off, and raised, lowered or neither. */
export interface RunFormat {
  b: boolean;
  i: boolean;
  s: boolean;
  v?: Position;
}

const TOGGLES = [
  ['b', 'bold'],
  ['i', 'italic'],
  ['s', 'strike'],
] as const;

/** What a style says about a property: its own value, else its nearest base style's (a derived style inherits). */
function inherited<K extends keyof RunProperties>(chain: StyleInfo[], key: K): RunProperties[K] {
  return chain.find((st) => st[key] !== undefined)?.[key];
}

/** Formatting with no style or default applied. */
export const PLAIN: RunFormat = { b: false, i: false, s: false };

/** The document defaults' run properties as a starting format (ECMA-376 17.7.5: they are absolute). */
export function defaultFormat(defaults: RunProperties): RunFormat {
  return {
    b: defaults.bold ?? false,
    i: defaults.italic ?? false,
    s: defaults.strike ?? false,
    v: defaults.position === 'baseline' ? undefined : defaults.position,
  };
}

/**
 * `base` with one style level applied (a paragraph style, then a character style, each with its
 * basedOn chain): per the toggle rule of ECMA-376 17.7.3, bold, italic and strike set on in a style
 * flip the state so far and set off leave it; vertical alignment is not a toggle, a level that sets it wins.
 */
export function applyStyleLevel(base: RunFormat, chain: StyleInfo[]): RunFormat {
  if (!chain.length) return base;
  const out = { ...base };
  for (const [flag, key] of TOGGLES) if (inherited(chain, key)) out[flag] = !out[flag];
  const position = inherited(chain, 'position');
  if (position) out.v = position === 'baseline' ? undefined : position;
  return out;
}
