/** Paragraph style names that mean a block quote (DOCX, RTF): Word's "Quote", LibreOffice's "Quotations". */
export const QUOTE_STYLE = /quote|^quotations$/i;
