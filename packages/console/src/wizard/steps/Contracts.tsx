import { useSession } from "../../session";
import { ErrorBox, Table } from "../../components/ui";
import { useSaving } from "./shared";
import { useTask } from "./Progress";
import { ReleaseVerification, VerificationState } from "../../components/Verification";

const NAMES: Record<string, string> = {
  points: "Points (branded SP token)",
  factory: "Factory (mint, redeem, allowlists)",
  collateralVault: "Collateral vault",
  pspVault: "PSP vault (campaigns, pSP)",
  oracle: "Oracle",
};

/** Step 8: the deployed contracts, each with its explorer page, or a plain note on a local chain. */
export function Contracts() {
  const { me, save } = useSession();
  const { task, error } = useTask(me.wizard.taskId);
  const s = useSaving();
  const program = task?.program;
  const explorer = task?.chain.explorerUrl?.replace(/\/$/, "") ?? null;
  const link = (name: string, addr: string) =>
    program?.explorer?.[name] ?? (explorer ? `${explorer}/address/${addr}` : null);

  return (
    <section className="panel stack" aria-labelledby="contracts-title">
      <h2 id="contracts-title">Your contracts</h2>
      <ErrorBox error={error} />
      {!task && !error && <p className="progress">Loading…</p>}
      {task && !explorer && (
        <p className="notice">
          {task.chain.name} is a local chain, no explorer: the addresses below are on your local node only.
        </p>
      )}
      {program && (
        <Table columns={["Contract", "Address", "Verification"]} caption="Deployed contracts">
          {Object.entries(program.addresses)
            .filter(([, a]) => a)
            .map(([name, addr]) => {
              const href = link(name, addr!);
              return (
                <tr key={name}>
                  <th scope="row">{NAMES[name] ?? name}</th>
                  <td>
                    <code className="addr">{addr}</code>
                  </td>
                  <td>
                    {href ? (
                      <a href={href} target="_blank" rel="noopener noreferrer">
                        View on explorer
                      </a>
                    ) : (
                      <span className="muted">local chain, no explorer</span>
                    )}{" "}
                    <VerificationState view={program.verification} contract={name} />
                  </td>
                </tr>
              );
            })}
        </Table>
      )}
      {program && <ReleaseVerification view={program.verification} />}
      {program && (
        <p>
          Every admin role is held by <code>{task!.deployer}</code>, your connected wallet.
        </p>
      )}
      {s.errorBox}
      <div className="row end">
        <button className="primary" disabled={!program || s.busy} onClick={() => void s.run(() => save({ step: 9 }))}>
          Go to the dashboard
        </button>
      </div>
    </section>
  );
}
