/**
 * Paragraph style names that mean a block quote (DOCX, RTF, ODT): Word's "Quote", LibreOffice's
 * "Quotations", and Word's built-in "Block Text", which pandoc's DOCX writer gives a block quote.
 */
export const QUOTE_STYLE = /quote|^quotations$|^block text$/i;
