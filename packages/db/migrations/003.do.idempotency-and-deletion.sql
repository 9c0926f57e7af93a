-- E8: a deleted conversion leaves its ledger rows (Stripe-style: every money movement stays
-- summable), so they keep the conversion's id without a foreign key to it.
ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_conversion_id_fkey;

-- E6: one row per workspace and Idempotency-Key, written by the charge statement itself. The
-- answer is rendered again from the conversion row, so no copy of the document is kept here;
-- deleting the conversion deletes its key.
CREATE TABLE idempotency_keys (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  key text NOT NULL,
  fingerprint char(64) NOT NULL,
  conversion_id uuid NOT NULL REFERENCES conversions (id) ON DELETE CASCADE,
  credits_used integer NOT NULL,
  credits_remaining integer NOT NULL,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
CREATE INDEX idempotency_keys_conversion_id_idx ON idempotency_keys (conversion_id);

-- E8 retention: finished conversions by finish time, oldest first.
CREATE INDEX conversions_completed_at_idx ON conversions (completed_at) WHERE completed_at IS NOT NULL;
