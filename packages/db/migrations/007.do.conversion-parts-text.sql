-- Issue 22: a range's reading is kept as the JSON text the converter wrote, not jsonb. Nothing
-- queries inside it: it is written once and read back whole by the converter that merges the
-- ranges, so parsing it into jsonb on the way in and printing it on the way out only cost time
-- (a 200-page range: about 645 KB, 19-28 ms to store as jsonb against 2-3 ms as text). It is not
-- compressed either (STORAGE EXTERNAL): the rows live for seconds and are deleted once merged.
ALTER TABLE conversion_parts ALTER COLUMN read TYPE text USING read::text;
ALTER TABLE conversion_parts ALTER COLUMN read SET STORAGE EXTERNAL;
