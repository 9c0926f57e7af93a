import iconv from 'iconv-lite';

/** Windows font charsets (\fcharsetN) to code pages, for documents that mix scripts by font. */
const CHARSET_CODEPAGE: Record<number, string> = {
  77: 'macintosh',
  128: 'cp932',
  129: 'cp949',
  134: 'cp936',
  136: 'cp950',
  161: 'cp1253',
  162: 'cp1254',
  163: 'cp1258',
  177: 'cp1255',
  178: 'cp1256',
  186: 'cp1257',
  204: 'cp1251',
  222: 'cp874',
  238: 'cp1250',
  255: 'cp437',
};

/** The character sets an RTF header may name instead of \ansicpg (\mac, \pc, \pca). */
const HEADER_CHARSET: Record<string, string> = { mac: 'macintosh', pc: 'cp437', pca: 'cp850' };

/** Code pages iconv-lite knows by another name. */
const CODEPAGE_ALIAS: Record<number, string> = { 10000: 'macintosh' };

/** The document's code page: \ansicpgN when iconv-lite knows it, else \mac, \pc or \pca, else Windows-1252. */
export function documentCodepage(header: string): string {
  const ansi = /\\ansicpg(\d+)/.exec(header)?.[1];
  const named = ansi ? codepageName(Number(ansi)) : undefined;
  if (named) return named;
  const charset = /\\(mac|pca|pc)(?![a-z])/.exec(header)?.[1];
  return (charset && HEADER_CHARSET[charset]) || 'cp1252';
}

export function codepageName(codepage: number): string | undefined {
  const name = CODEPAGE_ALIAS[codepage] ?? `cp${codepage}`;
  return iconv.encodingExists(name) ? name : undefined;
}

/** The code page of a font's \\fcharsetN, when it names one other than the document's. */
export function fontCharsetCodepage(charset: number): string | undefined {
  return CHARSET_CODEPAGE[charset];
}
