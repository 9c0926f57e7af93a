/**
 * Word's built-in Title, Subtitle and "heading N" paragraph styles by name, in English and as Word,
 * WPS and LibreOffice in other languages name them when a file carries the localised name ("Überschrift 1",
 * "Titre 1", "Título 1", "Kop 1"); used where the style has no outline level to go by (DOCX, RTF, ODT).
 */
const TITLE = /^(title|titel|titre|t[ií]tulo|titolo|tytuł|název|название)$/i;
const SUBTITLE =
  /^(subtitle|untertitel|sous-titre|subt[ií]tulo|sottotitolo|ondertitel|podtytuł|podnadpis|подзаголовок)$/i;
const HEADING =
  /^(heading|überschrift|titre|t[ií]tulo|titolo|titlu|kop|rubrik|overskrift|otsikko|nagłówek|nadpis|címsor|başlık|заголовок|見出し|标题|標題|제목)\s*([1-9])(?!\d)/i;

/** The heading level a style's name gives a paragraph: 1 for a title, 2 for a subtitle, N for heading N, else 0. */
export function headingLevelOfStyleName(name: string): number {
  if (TITLE.test(name)) return 1;
  if (SUBTITLE.test(name)) return 2;
  const m = HEADING.exec(name);
  return m ? Number(m[2]) : 0;
}
