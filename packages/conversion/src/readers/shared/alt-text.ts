/** What an image's alt text says when its document gives none we can use. */
export const NO_ALT_TEXT = 'image';

/**
 * Office appends a disclaimer to the alt text it writes itself ("Description automatically generated",
 * newer versions "AI-generated content may be incorrect."), in the user's language; it describes
 * how the text was made, not the picture.
 */
const GENERATED_DISCLAIMER = new RegExp(
  String.raw`\s*(?:` +
    [
      String.raw`description automatically generated(?: with (?:high|medium|low) confidence)?`,
      String.raw`ai-generated content may be incorrect`,
      String.raw`automatisch generierte beschreibung`,
      String.raw`ki-generierte inhalte können fehlerhaft sein`,
      String.raw`description générée automatiquement`,
      String.raw`le contenu généré par l’ia peut être incorrect`,
      String.raw`descripción generada automáticamente`,
      String.raw`el contenido generado por ia puede ser incorrecto`,
      String.raw`descrizione generata automaticamente`,
      String.raw`descrição gerada automaticamente`,
      String.raw`automatisch gegenereerde beschrijving`,
    ].join('|') +
    String.raw`)\.?\s*$`,
  'iu',
);

/**
 * The names Office and LibreOffice give a picture or frame when it is inserted ("Picture 4",
 * "Grafik 2", "Image1", "Content Placeholder 3"): they number objects, they don't describe them.
 */
const DEFAULT_OBJECT_NAME = new RegExp(
  String.raw`^(?:` +
    [
      'picture',
      'image',
      'graphic',
      'graphics',
      'object',
      'chart',
      'diagram',
      'drawing',
      'shape',
      'frame',
      'figure',
      'content placeholder',
      'picture placeholder',
      'grafik',
      'bild',
      'imagen',
      'immagine',
      'afbeelding',
      'obraz',
      'imagem',
      'рисунок',
      'изображение',
      '图片',
      '圖片',
      '図',
      '그림',
    ].join('|') +
    String.raw`)\s*\d*$`,
  'iu',
);

/** A bare file name ("image1.png", "IMG_2034.JPG") is what the picture was called on disk, not what it shows. */
const FILE_NAME = /^[^\s/\\]+\.(?:png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp|heic)$/iu;

/**
 * The alt text for an image from the candidates its document offers, best first (description,
 * title, object name): generated disclaimers are cut, numbered default names and file names are skipped.
 */
export function imageAltText(...candidates: Array<string | null | undefined>): string {
  for (const candidate of candidates) {
    const text = (candidate ?? '').replace(GENERATED_DISCLAIMER, '').replace(/\s+/g, ' ').trim();
    if (text && !DEFAULT_OBJECT_NAME.test(text) && !FILE_NAME.test(text)) return text;
  }
  return NO_ALT_TEXT;
}
