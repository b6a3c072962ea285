export const ENGINE_MIGRATIONS: { id: string; sql: string }[] = [
  {
    // An engine's final transactions' signed bytes, kept until finality so that whoever holds the key next can send
    // them again after a deep reorg (docs/architecture.md#nodes-and-networks).
    id: "102_engine_kept_txs",
    sql: `
      CREATE TABLE engine_kept_txs (
        chain_id TEXT NOT NULL,
        address TEXT NOT NULL,
        nonce BIGINT NOT NULL,
        hash TEXT NOT NULL,
        raw TEXT NOT NULL,
        block_number BIGINT NOT NULL,
        -- The chain's block 0: a dev chain started afresh under the same id is another chain.
        genesis TEXT NOT NULL,
        PRIMARY KEY (chain_id, address, nonce)
      );
    `,
  },
];
