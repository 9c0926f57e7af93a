-- Issue 22: a long PDF is converted in page ranges by any free converter. One row per range;
-- `read` (what the reader returned for the range: its document model, metadata and pages) is set
-- once it is read, and the conversion is written from all of them, in page order, when the last
-- one is. Deleted with the conversion (E8).
CREATE TABLE conversion_parts (
  conversion_id uuid NOT NULL REFERENCES conversions (id) ON DELETE CASCADE,
  first_page integer NOT NULL,
  last_page integer NOT NULL,
  read jsonb,
  PRIMARY KEY (conversion_id, first_page)
);
