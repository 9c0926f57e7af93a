-- Uploads are stored before the short charge transaction creates their conversion (issue 12),
-- so they cannot reference it; the gateway deletes refused uploads and sweeps stale orphans.
ALTER TABLE uploads DROP CONSTRAINT uploads_conversion_id_fkey;
CREATE INDEX uploads_created_at_idx ON uploads (created_at);
