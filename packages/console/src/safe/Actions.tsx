import { Fragment } from "react";
import { Address } from "../components/format/Address";
import { Amount } from "../components/format/Amount";
import { UserText } from "../components/format/UserText";
import { CampaignName } from "../dashboard/CampaignName";
import { CONTRACT_WORDS, roleWords } from "../dashboard/names";
import { useDash } from "../dashboard/context";
import { useTokenSymbol } from "../dashboard/useTokenSymbol";
import { addressName, type Arg, type DecodedCall } from "./decode";
import { TokenAmount } from "../components/TokenAmount";

/** An address with its name when it is one of the program's contracts, the connected wallet or a role's Safe. */
export function NamedAddress({ address }: { address: string }) {
  const { explorerUrl, program, wallet, safes } = useDash();
  const name = addressName(program, address, { wallet, safes });
  return (
    <>
      {name && <>{name} </>}
      <Address address={address} explorerUrl={explorerUrl} />
    </>
  );
}

function ArgValue({ arg }: { arg: Arg }) {
  const symbol = useTokenSymbol();
  switch (arg.kind) {
    case "sp":
      return (
        <>
          {arg.value.split(",").map((v, i) => (
            <span key={i}>
              {i > 0 && ", "}
              <Amount value={v} decimals={18} symbol={symbol} />
            </span>
          ))}
        </>
      );
    case "psp":
      return (
        <>
          {arg.value.split(",").map((v, i) => (
            <span key={i}>
              {i > 0 && ", "}
              <Amount value={v} decimals={18} symbol="pSP" />
            </span>
          ))}
        </>
      );
    case "token":
      return <TokenAmount value={arg.value} token={arg.token} />;
    case "units":
      return <>{arg.value.split(",").join(", ")} (smallest units)</>;
    case "address":
      return <NamedAddress address={arg.value} />;
    case "addresses":
      return arg.value.length === 0 ? (
        <>none</>
      ) : (
        <ul className="plain">
          {arg.value.map((a) => (
            <li key={a}>
              <NamedAddress address={a} />
            </li>
          ))}
        </ul>
      );
    case "campaign":
      return <CampaignName id={arg.value} label={arg.label} />;
    case "role":
      return <>{roleWords(arg.value)}</>;
    default:
      return arg.value === "" ? <>none</> : <UserText text={arg.value} />;
  }
}

/**
 * What a Safe transaction does, call by call, in words: the action and its contract, then each
 * argument (amounts in the token's own symbol, addresses shortened with a copy button, campaigns by verified label).
 */
export function Actions({ calls, label = "What this proposal does" }: { calls: DecodedCall[]; label?: string }) {
  return (
    <ol className="safe-actions" aria-label={label}>
      {calls.map((c, i) => (
        <li key={i}>
          <p>
            <strong>{c.action}</strong>
            {c.contract ? (
              ` on the ${CONTRACT_WORDS[c.contract]}`
            ) : (
              <>
                {" "}
                at <Address address={c.to} />
              </>
            )}
          </p>
          {c.args.length > 0 && (
            <dl className="kv">
              {c.args.map((a, j) => (
                <Fragment key={j}>
                  <dt>{a.name}</dt>
                  <dd>
                    <ArgValue arg={a} />
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}
