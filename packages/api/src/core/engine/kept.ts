import type { Queryable } from "../db/db.js";

/** A final transaction whose signed bytes are kept until no reorg is expected to reach it. */
export interface KeptTx {
  nonce: number;
  hash: string;
  raw: string;
  blockNumber: number;
  /** The hash of the chain's block 0 when it was final: a chain started afresh under the same id is another chain. */
  genesis: string;
}

/**
 * Where an engine keeps its final transactions' signed bytes beyond its own life, so that the process holding the
 * key after a restart or a lease takeover can send them again when a deep reorg removes them
 * (docs/architecture.md#nodes-and-networks).
 */
export interface KeptStore {
  save(tx: KeptTx): Promise<void>;
  drop(nonces: number[]): Promise<void>;
  load(): Promise<KeptTx[]>;
}

/** The kept transactions of one executor key on one chain, in the service's database. */
export function dbKeptStore(db: Queryable, chainId: string, address: string): KeptStore {
  return {
    async save(tx) {
      await db.query(
        `INSERT INTO engine_kept_txs (chain_id, address, nonce, hash, raw, block_number, genesis)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (chain_id, address, nonce) DO UPDATE SET hash = $4, raw = $5, block_number = $6, genesis = $7`,
        [chainId, address, tx.nonce, tx.hash, tx.raw, tx.blockNumber, tx.genesis],
      );
    },
    async drop(nonces) {
      if (nonces.length === 0) return;
      const list = nonces.map((_, i) => `$${i + 3}`).join(", ");
      await db.query(`DELETE FROM engine_kept_txs WHERE chain_id = $1 AND address = $2 AND nonce IN (${list})`, [
        chainId,
        address,
        ...nonces,
      ]);
    },
    async load() {
      const rows = await db.query<{ nonce: string; hash: string; raw: string; block_number: string; genesis: string }>(
        `SELECT nonce, hash, raw, block_number, genesis FROM engine_kept_txs
         WHERE chain_id = $1 AND address = $2 ORDER BY nonce`,
        [chainId, address],
      );
      return rows.map((r) => ({
        nonce: Number(r.nonce),
        hash: r.hash,
        raw: r.raw,
        blockNumber: Number(r.block_number),
        genesis: r.genesis,
      }));
    },
  };
}
