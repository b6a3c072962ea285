import { getAddress } from "ethers";
import type { Db } from "../db/db.js";

export type AssetKind = "collateral" | "feed";

export interface ListedAsset {
  chainId: string;
  kind: AssetKind;
  address: string;
  label: string;
  addedAt: string;
}

interface Row {
  chain_id: string;
  kind: AssetKind;
  address: string;
  label: string;
  added_at: Date | string;
}

const fromRow = (r: Row): ListedAsset => ({
  chainId: String(r.chain_id),
  kind: r.kind,
  address: getAddress(r.address),
  label: r.label,
  addedAt: new Date(r.added_at).toISOString(),
});

/**
 * The operator's list, per chain, of the collateral assets and oracle feeds a deploy may name
 * on a chain that is not a dev chain (docs: packages/api/README.md#running-in-production).
 * Addresses are kept lowercase and answered checksummed.
 */
export class AssetList {
  constructor(private readonly db: Db) {}

  async list(chainId?: string): Promise<ListedAsset[]> {
    const rows = await this.db.query<Row>(
      "SELECT * FROM chain_assets WHERE ($1::text IS NULL OR chain_id = $1) ORDER BY chain_id, kind, added_at, address",
      [chainId ?? null],
    );
    return rows.map(fromRow);
  }

  /** Adds (or relabels) an entry; idempotent. */
  async add(chainId: string, kind: AssetKind, address: string, label = ""): Promise<ListedAsset> {
    const [row] = await this.db.query<Row>(
      `INSERT INTO chain_assets (chain_id, kind, address, label) VALUES ($1, $2, $3, $4)
       ON CONFLICT (chain_id, kind, address) DO UPDATE SET label = EXCLUDED.label RETURNING *`,
      [chainId, kind, address.toLowerCase(), label],
    );
    return fromRow(row);
  }

  /** False when the entry was not listed. */
  async remove(chainId: string, kind: AssetKind, address: string): Promise<boolean> {
    const rows = await this.db.query(
      "DELETE FROM chain_assets WHERE chain_id = $1 AND kind = $2 AND address = $3 RETURNING address",
      [chainId, kind, address.toLowerCase()],
    );
    return rows.length === 1;
  }

  async has(chainId: string, kind: AssetKind, address: string): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM chain_assets WHERE chain_id = $1 AND kind = $2 AND address = $3", [
      chainId,
      kind,
      address.toLowerCase(),
    ]);
    return rows.length === 1;
  }
}
