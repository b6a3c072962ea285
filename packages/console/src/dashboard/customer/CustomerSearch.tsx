import { useState } from "react";
import { useNavigate } from "react-router";
import { getAddress } from "ethers";
import { Field } from "../../components/ui";
import { addressError } from "../addressCheck";

/**
 * The dashboard header's "Find a customer": an address within the current program opens its
 * customer page. A mistyped address is explained next to the field and opens nothing. A search
 * landmark rather than a form: it writes nothing, so pages whose rule is "no form" (not-found)
 * keep it.
 */
export function CustomerSearch() {
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const find = () => {
    const problem = addressError(value);
    setError(problem);
    // Under a BrowserRouter navigate is synchronous; only data routers return a promise.
    if (!problem) void navigate(`/program/customer/${getAddress(value.trim().toLowerCase())}`);
  };
  return (
    <div role="search" aria-label="Find a customer" className="customer-search">
      <Field
        label="Find a customer"
        placeholder="0x… address"
        value={value}
        error={error}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && find()}
      />
      <button type="button" onClick={find}>
        Find
      </button>
    </div>
  );
}
