// Run by pdfjs-load.test.ts in a child process under tsx (pdf.js is ES modules only): loads pdf.js as
// the reader does and prints which of the built-ins it touches are still the natives.
import { loadPdfJs } from '../../src/readers/pdf/pdfjs';

const push = Array.prototype.push;
const parse = JSON.parse;
const hadWithResolvers = 'withResolvers' in Promise;

void loadPdfJs().then(() => {
  process.stdout.write(
    JSON.stringify({
      push: Array.prototype.push === push,
      parse: JSON.parse === parse,
      // What pdf.js adds (Node 20 lacks it) must stay: pdf.js calls it.
      withResolvers: hadWithResolvers || typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function',
    }),
  );
});
