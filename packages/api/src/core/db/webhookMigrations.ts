/**
 * The webhooks' tables (docs/architecture.md#webhooks), appended at the end of the service's
 * list of migrations (src/db/migrations.ts).
 */
export const WEBHOOK_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "030_ledger_webhooks",
    sql: `
      -- A subscription belongs to the API key or console account that made it (owner).
      -- enqueued_block/log: the last ledger event already matched into deliveries.
      CREATE TABLE webhook_subscriptions (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        program_id TEXT NOT NULL,
        chain_id TEXT NOT NULL,
        url TEXT NOT NULL,
        event_types TEXT[] NOT NULL,
        campaign_id TEXT,
        holder TEXT,
        secret TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'disabled')),
        disabled_reason TEXT,
        from_block BIGINT NOT NULL,
        enqueued_block BIGINT NOT NULL,
        enqueued_log INTEGER NOT NULL DEFAULT -1,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_subscriptions_owner ON webhook_subscriptions (owner, created_at);
      CREATE INDEX webhook_subscriptions_program ON webhook_subscriptions (chain_id, program_id);
      -- One row per (subscription, event, type): its id is the webhook-id of every attempt.
      CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        -- Delivery order per subscription: chain order, a reorg's removals before the new history.
        seq BIGSERIAL NOT NULL,
        subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type IN ('event', 'removed')),
        block_number BIGINT NOT NULL,
        log_index INTEGER NOT NULL,
        event TEXT,
        payload JSONB NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        next_attempt_at TIMESTAMPTZ,
        first_attempt_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        delivered_at TIMESTAMPTZ,
        UNIQUE (subscription_id, block_number, log_index, type)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)
        WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, block_number, log_index);
      CREATE INDEX webhook_deliveries_order ON webhook_deliveries (subscription_id, seq) WHERE status = 'pending';
    `,
  },
];

/** The dispatchers' lease (080), listed after the migrations that came before it. */
export const WEBHOOK_LEASE_MIGRATIONS: { id: string; sql: string }[] = [
  {
    // Dispatchers on one PostgreSQL share subscriptions by lease (docs/architecture.md#webhooks):
    // a subscription's queue is sent by the one instance that holds it, so its order holds and
    // no delivery is sent by two instances at once; a crashed holder's lease expires.
    id: "080_webhook_dispatch_lease",
    sql: `
      ALTER TABLE webhook_subscriptions ADD COLUMN lease_owner TEXT;
      ALTER TABLE webhook_subscriptions ADD COLUMN lease_expires_at TIMESTAMPTZ;
    `,
  },
];

/** Webhook ids by event identity, and revoked keys' subscriptions (098), after the migrations before them. */
export const WEBHOOK_IDENTITY_MIGRATIONS: { id: string; sql: string }[] = [
  {
    // A delivery's id now derives from its event's identity (docs/architecture.md#webhooks), so the
    // same event matched again keeps its id and a second removal of one position is its own row:
    // one event delivery per position stays unique, removals are unique by id only.
    id: "098_webhook_event_identity",
    sql: `
      DO $$ DECLARE c TEXT; BEGIN
        FOR c IN SELECT conname FROM pg_constraint
          WHERE conrelid = 'webhook_deliveries'::regclass AND contype = 'u' LOOP
          EXECUTE format('ALTER TABLE webhook_deliveries DROP CONSTRAINT %I', c);
        END LOOP;
      END $$;
      CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (subscription_id, block_number, log_index)
        WHERE type = 'event';
      -- Paused by the operator: only the operator resumes it (docs/architecture.md#webhooks).
      ALTER TABLE webhook_subscriptions ADD COLUMN operator_hold BOOLEAN NOT NULL DEFAULT false;
      -- A revoked key's subscriptions stop (revoking disables them from now on).
      UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = 'its API key was revoked'
        WHERE owner IN (SELECT id FROM api_keys WHERE revoked_at IS NOT NULL) AND status <> 'disabled';
    `,
  },
];
