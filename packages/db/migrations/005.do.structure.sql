-- E1–E4: the structure a conversion was asked for, kept on its row so a queued job carries
-- nothing new, and what came back (pages, chunks, document) beside the markdown. They live on
-- the conversion row, so deleting the conversion (E8) deletes them with it.
ALTER TABLE conversions ADD COLUMN include_pages boolean NOT NULL DEFAULT false;
ALTER TABLE conversions ADD COLUMN page_range text;
ALTER TABLE conversions ADD COLUMN chunk_max_tokens integer;
ALTER TABLE conversions ADD COLUMN include_document boolean NOT NULL DEFAULT false;
ALTER TABLE conversions ADD COLUMN pages jsonb;
ALTER TABLE conversions ADD COLUMN chunks jsonb;
ALTER TABLE conversions ADD COLUMN document jsonb;
