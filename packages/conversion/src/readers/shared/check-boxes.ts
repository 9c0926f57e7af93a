/** The characters Word draws for a check box (content controls, legacy form fields): ☒ checked, ☐ not. */
export const CHECKED_BOX = '\u2612';
export const UNCHECKED_BOX = '\u2610';

/** A check box as the character Word draws for its state. */
export function checkBoxCharacter(checked: boolean): string {
  return checked ? CHECKED_BOX : UNCHECKED_BOX;
}
