import { useState, type FormEvent } from "react";
import { CONTRACT_NAMES, type ContractName, type RoleName } from "@points/schema";
import { useWallet } from "../wallet/wallet";
import { useTx } from "../components/TxDialog";
import { Card, ErrorBox, Field, isAddress, Table } from "../components/ui";
import { pausedStates, programContracts } from "./chain";
import { useLedger } from "./ledger/useLedger";
import { LedgerStatus } from "./ledger/LedgerStatus";
import { useDash, useLoad } from "./context";
import { Address } from "../components/format/Address";
import { CONTRACT_WORDS, OnChainName, roleWords } from "./names";
import { contractRoles, roleAfterContractChange } from "./contractRoles";

/** Who holds what (from the ledger), grant and revoke, pause per contract. */
export function Roles() {
  const { client, program, from, acting, bump, explorerUrl } = useDash();
  const wallet = useWallet();
  const run = useTx();
  const onChain = String(wallet.chainId) === program.chainId;
  const holders = useLedger(async () => {
    const answer = await client.ledger.roles();
    const rows = answer.contracts.flatMap((c) =>
      c.roles
        .filter((r) => r.holders.length > 0)
        .map((r) => ({ contract: c.contract, role: r.role, accounts: r.holders })),
    );
    return { blockNumber: answer.blockNumber, rows };
  }, []);
  const paused = useLoad(async () => {
    const p = wallet.provider();
    return p && onChain ? pausedStates(p, program) : null;
  }, [onChain]);
  const contracts = programContracts(program).map(([n]) => n);

  const [contract, setContract] = useState<ContractName>("factory");
  const [role, setRole] = useState<RoleName>("MANAGER_ROLE");
  const [account, setAccount] = useState("");
  const [accountError, setAccountError] = useState<string | null>(null);
  const [check, setCheck] = useState<string | null>(null);
  const checked = useLoad(
    async () => (check ? client.roles.check(contract, role, check) : null),
    [check, contract, role],
  );

  const act = (kind: "grant" | "revoke" | "check") => (e?: FormEvent) => {
    e?.preventDefault();
    if (!isAddress(account)) return setAccountError("Must be an address.");
    setAccountError(null);
    const a = account.trim();
    if (kind === "check") return setCheck(a);
    if (!from) return;
    const input = { contract, role, account: a };
    // A role's admin role is DEFAULT_ADMIN_ROLE on every program contract.
    const who = acting([{ contract, role: "DEFAULT_ADMIN_ROLE" }]);
    run({
      title: `${kind === "grant" ? "Grant" : "Revoke"} ${role} on ${contract}`,
      role: who.role ?? undefined,
      destructive: `${kind === "grant" ? "Gives" : "Takes"} ${a} ${kind === "grant" ? "the" : "away the"} ${roleWords(role)} role on the ${CONTRACT_WORDS[contract]}.`,
      build: () =>
        kind === "grant"
          ? client.roles.grant(input, { from: who.from! })
          : client.roles.revoke(input, { from: who.from! }),
      onDone: bump,
    });
  };

  const freeze = (c: ContractName, pause: boolean) => {
    // Pausing takes PAUSER_ROLE, unpausing the contract's admin.
    const who = acting([{ contract: c, role: pause ? "PAUSER_ROLE" : "DEFAULT_ADMIN_ROLE" }]);
    if (!from || !who.from) return;
    run({
      title: `${pause ? "Pause" : "Unpause"} ${c}`,
      destructive: pause
        ? `Stops every transaction of the ${CONTRACT_WORDS[c]} until an admin unpauses it.`
        : `Lets every transaction of the ${CONTRACT_WORDS[c]} run again.`,
      role: who.role ?? undefined,
      build: () =>
        pause ? client.freeze.pause(c, { from: who.from! }) : client.freeze.unpause(c, { from: who.from! }),
      onDone: bump,
    });
  };

  // The holders' table across the page (three columns, one line a row), then the two forms side by side.
  return (
    <div className="halves">
      <div className="wide">
        <Card title="Who holds what">
          <LedgerStatus stand={holders.value ? holders.stand : null} />
          <ErrorBox error={holders.error} />
          {holders.value && (
            <Table columns={["Contract", "Role", "Holders"]}>
              {holders.value.rows.map((h) => (
                <tr key={`${h.contract}-${h.role}`}>
                  <td>
                    <OnChainName
                      words={CONTRACT_WORDS[h.contract as ContractName] ?? h.contract}
                      onChain={h.contract}
                    />
                  </td>
                  <td>
                    <OnChainName words={roleWords(h.role)} onChain={h.role} />
                  </td>
                  <td>
                    <ul className="plain">
                      {h.accounts.map((a) => (
                        <li key={a}>
                          <Address address={a} explorerUrl={explorerUrl} />
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
      </div>
      <Card title="Grant, revoke or check a role">
        <form className="stack" onSubmit={act("grant")} noValidate>
          <div className="grid2">
            <div className="field">
              <label htmlFor="role-contract">Contract</label>
              <select
                id="role-contract"
                value={contract}
                onChange={(e) => {
                  const next = e.target.value as ContractName;
                  setContract(next);
                  setRole(roleAfterContractChange(next, role));
                }}
              >
                {CONTRACT_NAMES.filter((n) => contracts.includes(n)).map((n) => (
                  <option key={n} value={n}>
                    {CONTRACT_WORDS[n]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="role-name">Role</label>
              <select id="role-name" value={role} onChange={(e) => setRole(e.target.value as RoleName)}>
                {/* Only the roles this contract's ABI defines. */}
                {contractRoles(contract).map((n) => (
                  <option key={n} value={n}>
                    {roleWords(n)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <Field label="Account" value={account} error={accountError} onChange={(e) => setAccount(e.target.value)} />
          <div className="row wrap">
            <button type="submit" className="danger" disabled={!from}>
              Grant
            </button>
            <button type="button" className="danger" disabled={!from} onClick={() => act("revoke")()}>
              Revoke
            </button>
            <button type="button" onClick={() => act("check")()}>
              Check
            </button>
          </div>
        </form>
        <ErrorBox error={checked.error} />
        {check && checked.value && (
          <p role="status">
            <code>{checked.value.address}</code> {checked.value.hasRole ? "holds" : "does not hold"} the{" "}
            {roleWords(checked.value.role)} role on the {CONTRACT_WORDS[checked.value.contract as ContractName]}.
          </p>
        )}
      </Card>
      <Card title="Pause and unpause">
        <p className="muted">A pauser pauses; only the contract's admin unpauses.</p>
        <ErrorBox error={paused.error} />
        {/* A list that wraps, not a table: the buttons stay on screen at 390 px. */}
        <ul className="plain stack" aria-label="Contracts and their pause state">
          {contracts.map((c) => (
            <li key={c} className="row wrap between">
              <span>
                <OnChainName words={CONTRACT_WORDS[c]} onChain={c} />{" "}
                {paused.value ? (
                  paused.value[c] ? (
                    <span className="badge bad">paused</span>
                  ) : (
                    <span className="badge ok">running</span>
                  )
                ) : null}
              </span>
              <span className="row wrap">
                <button
                  className="danger"
                  disabled={!from || paused.value?.[c] === true}
                  onClick={() => freeze(c, true)}
                >
                  Pause {CONTRACT_WORDS[c]}
                </button>
                <button
                  className="danger"
                  disabled={!from || paused.value?.[c] === false}
                  onClick={() => freeze(c, false)}
                >
                  Unpause {CONTRACT_WORDS[c]}
                </button>
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
