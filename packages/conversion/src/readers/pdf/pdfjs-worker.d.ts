// pdf.js publishes no types for its worker module; it is loaded only for what it defines on globalThis.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
