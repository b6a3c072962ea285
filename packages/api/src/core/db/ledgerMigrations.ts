/**
 * The ledger's tables (docs/architecture.md#the-ledger). Appended to the service's one list of
 * migrations (src/db/migrations.ts), so they run on PGlite and PostgreSQL alike.
 */
export const LEDGER_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "008_ledger",
    sql: `
      -- Per chain: the last block indexed and its hash (a different hash there is a reorg).
      CREATE TABLE ledger_cursors (
        chain_id TEXT PRIMARY KEY,
        block_number BIGINT NOT NULL,
        block_hash TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      -- One indexer per chain at a time; every commit checks the lease in its own transaction.
      CREATE TABLE ledger_leases (
        chain_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      -- What the indexer follows: registered programs and programs announced by a ProgramFactory
      -- it follows. synced_to: the last block whose logs of this program are in ledger_events.
      CREATE TABLE ledger_programs (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('registry', 'factory')),
        points TEXT NOT NULL,
        factory TEXT NOT NULL,
        collateral_vault TEXT NOT NULL,
        psp_vault TEXT NOT NULL,
        oracle TEXT,
        program_factory TEXT,
        from_block BIGINT NOT NULL,
        synced_to BIGINT NOT NULL,
        PRIMARY KEY (chain_id, program_id)
      );
      -- Hashes (and times) of indexed blocks: range ends and blocks holding events; a reorg
      -- rolls back to the newest one the chain still has.
      CREATE TABLE ledger_blocks (
        chain_id TEXT NOT NULL,
        block_number BIGINT NOT NULL,
        block_hash TEXT NOT NULL,
        block_time BIGINT NOT NULL,
        PRIMARY KEY (chain_id, block_number)
      );
      -- Every log of every followed contract, decoded with its ABI (args as JSON: integers as
      -- decimal strings, addresses checksummed). accounts: every address among the args.
      CREATE TABLE ledger_events (
        chain_id TEXT NOT NULL,
        block_number BIGINT NOT NULL,
        log_index INTEGER NOT NULL,
        block_hash TEXT NOT NULL,
        block_time BIGINT NOT NULL,
        tx_hash TEXT NOT NULL,
        address TEXT NOT NULL,
        program_id TEXT,
        contract TEXT NOT NULL,
        event TEXT,
        args JSONB NOT NULL,
        campaign_id TEXT,
        accounts TEXT[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (chain_id, block_number, log_index)
      );
      CREATE INDEX ledger_events_program ON ledger_events (program_id, block_number, log_index);
      CREATE INDEX ledger_events_campaign ON ledger_events (program_id, campaign_id, block_number, log_index)
        WHERE campaign_id IS NOT NULL;
      CREATE INDEX ledger_events_accounts ON ledger_events USING GIN (accounts);
    `,
  },
];

/** The ledger's state tables (081), listed after the migrations that came before them. */
export const LEDGER_STATE_MIGRATIONS: { id: string; sql: string }[] = [
  {
    // The program state the read routes answer from (docs/architecture.md#the-ledger), written in
    // the indexer's commit transaction from the events it stores and rebuilt on a reorg. Amounts
    // are exact integers; holder keys lowercase (pagination order), other accounts checksummed.
    id: "081_ledger_state",
    sql: `
      CREATE TABLE ledger_campaigns (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        creator TEXT NOT NULL,
        status TEXT NOT NULL,
        budget NUMERIC(78, 0) NOT NULL,
        available NUMERIC(78, 0) NOT NULL,
        outstanding NUMERIC(78, 0) NOT NULL,
        metadata TEXT NOT NULL,
        created_block BIGINT NOT NULL,
        created_log INTEGER NOT NULL,
        PRIMARY KEY (chain_id, program_id, campaign_id)
      );
      CREATE TABLE ledger_campaign_minters (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        minter TEXT NOT NULL,
        mint_limit NUMERIC(78, 0) NOT NULL,
        issued NUMERIC(78, 0) NOT NULL,
        active BOOLEAN NOT NULL,
        PRIMARY KEY (chain_id, program_id, campaign_id, minter)
      );
      -- list: admins, settlementWhitelist, transferWhitelist.
      CREATE TABLE ledger_campaign_members (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        list TEXT NOT NULL,
        account TEXT NOT NULL,
        PRIMARY KEY (chain_id, program_id, campaign_id, list, account)
      );
      CREATE TABLE ledger_psp_balances (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        holder TEXT NOT NULL,
        balance NUMERIC(78, 0) NOT NULL,
        PRIMARY KEY (chain_id, program_id, campaign_id, holder)
      );
      CREATE TABLE ledger_sp_balances (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        holder TEXT NOT NULL,
        balance NUMERIC(78, 0) NOT NULL,
        PRIMARY KEY (chain_id, program_id, holder)
      );
      -- list: mint, redeem, transfer (the Points and Factory allowlists).
      CREATE TABLE ledger_allowlists (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        list TEXT NOT NULL,
        account TEXT NOT NULL,
        PRIMARY KEY (chain_id, program_id, list, account)
      );
      -- One row per (contract, role, account) ever granted or revoked; first_*: the first such
      -- event, which orders contracts and roles as the chain first showed them.
      CREATE TABLE ledger_role_holders (
        chain_id TEXT NOT NULL,
        program_id TEXT NOT NULL,
        address TEXT NOT NULL,
        contract TEXT NOT NULL,
        role TEXT NOT NULL,
        account TEXT NOT NULL,
        held BOOLEAN NOT NULL,
        first_block BIGINT NOT NULL,
        first_log INTEGER NOT NULL,
        PRIMARY KEY (chain_id, address, role, account)
      );
      CREATE INDEX ledger_role_holders_program ON ledger_role_holders (chain_id, program_id);
      -- Programs indexed before these tables existed: the indexer builds their state once from
      -- their stored events (programs followed from now on are built as they are indexed).
      ALTER TABLE ledger_programs ADD COLUMN state_pending BOOLEAN NOT NULL DEFAULT false;
      UPDATE ledger_programs SET state_pending = true;
    `,
  },
];
