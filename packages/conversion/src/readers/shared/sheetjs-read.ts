import * as XLSX from '@e965/xlsx';

/**
 * SheetJS's `XLSX.read`, without the notes it prints to the console while parsing (an ODS number
 * format with a condition it approximates, once per style): they name no file or job, so in a
 * converter's log they are noise, and in the CLI they interleave with the output. The read is
 * synchronous, so nothing else logs while the console is quiet.
 */
export function readWorkbook(data: Parameters<typeof XLSX.read>[0], options: XLSX.ParsingOptions): XLSX.WorkBook {
  const { error, warn } = console;
  console.error = console.warn = () => undefined;
  try {
    return XLSX.read(data, options);
  } finally {
    console.error = error;
    console.warn = warn;
  }
}
