import { defineConfig } from 'tsup';

/** ESM (dist/index.js) and CJS (dist/index.cjs), each with its own declarations, for Node 20+. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  target: 'node20',
  clean: true,
});
