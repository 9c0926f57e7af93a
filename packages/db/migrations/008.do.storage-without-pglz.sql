-- Issue 22: PostgreSQL's default TOAST compression (pglz) ran on the critical path of every large
-- conversion, in both directions, for little or nothing.
-- Uploads are mostly compressed formats already (PDF streams, DOCX/XLSX zips, images) and live for
-- one conversion: pglz spent ~23 ms of the backend's CPU on the 825 KB PDF of the split benchmark
-- only to give up (the result saved less than a quarter), inside the INSERT that POST /convert waits
-- for. They are stored as they are.
ALTER TABLE uploads ALTER COLUMN bytes SET STORAGE EXTERNAL;
-- Results are text and compress well; lz4 writes 860 KB of Markdown in ~6 ms of the backend's CPU
-- against pglz's ~25 (inside the completion that the webhook waits for) and reads it back in ~2
-- against ~4, for ~30 % more bytes (353 against 274 KB). Older rows keep pglz; both are read alike.
-- A server built without lz4 keeps pglz.
DO $$
BEGIN
  ALTER TABLE conversions
    ALTER COLUMN markdown SET COMPRESSION lz4,
    ALTER COLUMN pages SET COMPRESSION lz4,
    ALTER COLUMN chunks SET COMPRESSION lz4,
    ALTER COLUMN document SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available in this PostgreSQL build: results stay compressed with pglz';
END $$;
