-- E10: a redelivery starts a new series of up to 3 webhook attempts. The conversion records its
-- current series (and when it was asked for, so the sweeper can make an overdue first attempt);
-- each attempt belongs to one series, numbered 1..3 within it.
ALTER TABLE conversions ADD COLUMN webhook_series integer NOT NULL DEFAULT 1;
ALTER TABLE conversions ADD COLUMN webhook_series_started_at timestamptz(3);
ALTER TABLE webhook_attempts ADD COLUMN series integer NOT NULL DEFAULT 1;
DROP INDEX webhook_attempts_conversion_id_number_key;
CREATE UNIQUE INDEX webhook_attempts_conversion_id_series_number_key ON webhook_attempts (conversion_id, series, number);
