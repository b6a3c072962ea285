import { useState, type FormEvent } from "react";
import { useTx } from "../components/TxDialog";
import { Card, ErrorBox, Field, isAddress, Table } from "../components/ui";
import { useDash, useLoad } from "./context";
import { Address } from "../components/format/Address";
import { useLedger } from "./ledger/useLedger";
import { LedgerStatus } from "./ledger/LedgerStatus";

const LISTS = [
  { key: "mint", label: "Mint", on: "Factory", who: "a Manager changes it" },
  { key: "redeem", label: "Redeem", on: "Factory", who: "a Manager changes it" },
  { key: "transfer", label: "Transfer", on: "Points token", who: "its Admin changes it" },
] as const;

/** The members of the three allowlists (from the ledger); check an address and add or remove it, one transaction each. */
export function Allowlists() {
  const { client, from, bump, explorerUrl } = useDash();
  const members = useLedger(() => client.ledger.allowlists(), []);
  const run = useTx();
  const [input, setInput] = useState("");
  const [address, setAddress] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const status = useLoad(async () => (address ? client.factory.whitelistStatus(address) : null), [address]);

  const check = (e: FormEvent) => {
    e.preventDefault();
    if (!isAddress(input)) return setInputError("Must be an address (0x + 40 hex digits).");
    setInputError(null);
    setAddress(input.trim());
  };

  const change = (list: (typeof LISTS)[number]["key"], add: boolean) => {
    if (!address || !from) return;
    const o = { from };
    const build = {
      mint: () =>
        add ? client.factory.addToMintWhitelist(address, o) : client.factory.removeFromMintWhitelist(address, o),
      redeem: () =>
        add ? client.factory.addToRedeemWhitelist(address, o) : client.factory.removeFromRedeemWhitelist(address, o),
      transfer: () =>
        add ? client.points.addToTransferWhitelist(address, o) : client.points.removeFromTransferWhitelist(address, o),
    }[list];
    run({ title: `${add ? "Add to" : "Remove from"} the ${list} allowlist`, build, onDone: bump });
  };

  // One card under the other: side by side at 1280-1920 px the Check table overflowed its
  // column and the Members card covered its Add/Remove buttons.
  return (
    <div className="stack">
      <Card title="Check an address">
        <form className="row wrap" onSubmit={check} noValidate>
          <Field
            label="Address"
            value={input}
            spellCheck={false}
            error={inputError}
            onChange={(e) => setInput(e.target.value)}
            placeholder="0x…"
          />
          <button type="submit" className="primary">
            Check
          </button>
          {from && (
            <button type="button" onClick={() => (setInput(from), setAddress(from))}>
              Use my wallet
            </button>
          )}
        </form>
        <ErrorBox error={status.error} />
        {address && status.value && (
          <div className="table-scroll">
            <Table columns={["Allowlist", "Status", "Change"]} label={`Allowlists of ${address}`}>
              {LISTS.map((l) => {
                const listed = status.value![l.key];
                return (
                  <tr key={l.key} data-list={l.key}>
                    <th scope="row">
                      {l.label}{" "}
                      <span className="muted">
                        ({l.on}; {l.who})
                      </span>
                    </th>
                    <td>
                      {listed ? <span className="badge ok">listed</span> : <span className="badge">not listed</span>}
                    </td>
                    <td>
                      <button disabled={!from} onClick={() => change(l.key, !listed)}>
                        {listed ? `Remove from ${l.label.toLowerCase()}` : `Add to ${l.label.toLowerCase()}`}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </Table>
          </div>
        )}
      </Card>
      <Card title="Members">
        <LedgerStatus stand={members.value ? members.stand : null} />
        <ErrorBox error={members.error} />
        {members.value &&
          LISTS.map((l) => (
            <div key={l.key} className="stack">
              <strong>{l.label} allowlist</strong>
              {members.value![l.key].length === 0 ? (
                <p className="muted">Nobody yet.</p>
              ) : (
                <ul className="plain" aria-label={`${l.label} allowlist members`}>
                  {members.value![l.key].map((a) => (
                    <li key={a}>
                      <Address address={a} explorerUrl={explorerUrl} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
      </Card>
    </div>
  );
}
