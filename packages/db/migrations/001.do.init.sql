-- Initial schema: workspaces, tokens, conversions with their uploads, the credit ledger and
-- webhook attempts. Mirrors prisma/schema.prisma.
CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('free', 'starter', 'professional', 'business')),
  credit_balance integer NOT NULL CHECK (credit_balance >= 0),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  token_hash char(64) NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz(3)
);

CREATE TABLE conversions (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
  original_filename text NOT NULL,
  extension text NOT NULL,
  file_size_bytes integer NOT NULL,
  use_enhanced_ai boolean NOT NULL,
  include_metadata boolean NOT NULL,
  optimize_tokens boolean NOT NULL,
  mode text NOT NULL CHECK (mode IN ('sync', 'async')),
  webhook_url text,
  webhook_secret text,
  credits_charged integer NOT NULL,
  markdown text,
  metadata jsonb,
  token_optimization jsonb,
  error text,
  created_at timestamptz(3) NOT NULL,
  started_at timestamptz(3),
  completed_at timestamptz(3),
  last_published_at timestamptz(3),
  publish_count integer NOT NULL DEFAULT 0
);
CREATE INDEX conversions_workspace_id_created_at_id_idx ON conversions (workspace_id, created_at DESC, id DESC);
CREATE INDEX conversions_status_last_published_at_idx ON conversions (status, last_published_at);

CREATE TABLE uploads (
  conversion_id uuid PRIMARY KEY REFERENCES conversions (id) ON DELETE CASCADE,
  bytes bytea NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE credit_transactions (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  conversion_id uuid REFERENCES conversions (id),
  type text NOT NULL CHECK (type IN ('charge', 'refund', 'grant')),
  amount integer NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX credit_transactions_conversion_id_type_key ON credit_transactions (conversion_id, type);
CREATE INDEX credit_transactions_workspace_id_created_at_idx ON credit_transactions (workspace_id, created_at);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  conversion_id uuid NOT NULL REFERENCES conversions (id) ON DELETE CASCADE,
  number integer NOT NULL,
  attempted_at timestamptz(3) NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  succeeded boolean NOT NULL
);
CREATE UNIQUE INDEX webhook_attempts_conversion_id_number_key ON webhook_attempts (conversion_id, number);
