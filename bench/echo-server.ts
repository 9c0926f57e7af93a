import type { AddressInfo } from 'node:net';
import express from 'express';
import multer from 'multer';

/**
 * The baseline of `pnpm load`: bare Express 5 + multer in memory, the same upload parsing the
 * gateway does, answering the sync body shape without any database, broker or conversion.
 */
const app = express();
const upload = multer({ storage: multer.memoryStorage(), limits: { files: 1 } }).single('file');
app.post('/api/v1/convert', upload, (req, res) => {
  res.json({ success: true, markdown: req.file?.buffer.toString('utf8') ?? '', credits_used: 1, credits_remaining: 1 });
});
app.get('/api/v1/conversions/:id', (req, res) => {
  res.json({ id: req.params.id, status: 'completed', markdown: 'echo' });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
