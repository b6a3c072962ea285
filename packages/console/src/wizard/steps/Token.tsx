import { useEffect, useState, type FormEvent } from "react";
import { useSession } from "../../session";
import { consoleApi, type BrandAvailability, type TokenConfig } from "../../api/console";
import { describeError } from "../../api/errors";
import { Field } from "../../components/ui";
import { StepNav, useSaving } from "./shared";
import { BRAND, brand as brandError, symbol, text, url } from "./validate";
import { useStepFields } from "./fields";
import { DeskPolicyField, type DeskChoice } from "./DeskChoice";

type Check =
  { state: "idle" | "checking" } | { state: "done"; result: BrandAvailability } | { state: "error"; message: string };

/** Answers whether a brand is free, 400 ms after the last keystroke; stale answers are dropped. */
function useBrandCheck(brand: string, chainId: number | null | undefined): Check {
  const [check, setCheck] = useState<Check>({ state: "idle" });
  useEffect(() => {
    if (!BRAND.test(brand)) return setCheck({ state: "idle" });
    setCheck({ state: "checking" });
    let live = true;
    const t = setTimeout(() => {
      consoleApi.brandAvailable(brand, chainId).then(
        (result) => live && setCheck({ state: "done", result }),
        (e) => live && setCheck({ state: "error", message: describeError(e).title }),
      );
    }, 400);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [brand, chainId]);
  return check;
}

const suggest = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 32);

/** Step 5: the token's public details, the brand (the program's on-chain identifier) and the redemption desk. */
export function TokenAndBrand() {
  const { me, save } = useSession();
  const s = useSaving();
  const form = useStepFields<TokenConfig>({
    name: "",
    symbol: "",
    description: "",
    logoUrl: "",
    websiteUrl: me.wizard.organization?.website ?? "",
    ...me.wizard.token,
  });
  const token = form.values;
  const [brand, setBrand] = useState(me.wizard.brand ?? suggest(me.wizard.organization?.name ?? ""));
  const [deskPolicy, setDeskPolicy] = useState<DeskChoice>(me.wizard.deskPolicy ?? null);
  const check = useBrandCheck(brand, me.wizard.chainId);
  const errors = {
    name: text(token.name, 64),
    symbol: symbol(token.symbol),
    description: text(token.description, 2000),
    logoUrl: url(token.logoUrl),
    websiteUrl: url(token.websiteUrl),
    brand: brandError(brand),
  };
  const shown = (k: keyof typeof errors) => (form.touched ? errors[k] : null);
  const bind = form.bind(errors);
  const taken = check.state === "done" && !check.result.available;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.submitted(errors, taken)) return s.setError({ title: "Check the highlighted fields." });
    void s.run(() => save({ token: form.trimmed(), brand, deskPolicy, step: 6 }));
  };

  return (
    <form className="panel stack" aria-labelledby="token-title" onSubmit={submit} noValidate>
      <h2 id="token-title">Token and brand</h2>
      <div className="grid2">
        <Field label="Token name" required {...bind("name")} placeholder="Acme Points" />
        <Field label="Token symbol" required {...bind("symbol")} placeholder="ACME" maxLength={11} />
      </div>
      <Field label="Token description" textarea required {...bind("description")} />
      <div className="grid2">
        <Field label="Logo URL" type="url" required {...bind("logoUrl")} placeholder="https://example.com/logo.png" />
        <Field label="Token website URL" type="url" required {...bind("websiteUrl")} />
      </div>
      <Field
        label="Brand"
        required
        value={brand}
        maxLength={32}
        autoCapitalize="none"
        spellCheck={false}
        onChange={(e) => setBrand(e.target.value)}
        error={
          brand && brandError(brand)
            ? brandError(brand)
            : taken
              ? `Not available${check.result.message ? `: ${check.result.message}` : check.result.reason ? ` (${check.result.reason})` : ""}.`
              : shown("brand")
        }
        hint={
          <span aria-live="polite">
            Lowercase letters and digits; the program's on-chain identifier and id.{" "}
            {check.state === "checking" && <span className="muted">Checking availability…</span>}
            {check.state === "done" && check.result.available && (
              <span className="ok-text">✓ {brand} is available.</span>
            )}
            {check.state === "error" && <span className="muted">Could not check: {check.message}</span>}
          </span>
        }
      />
      <DeskPolicyField value={deskPolicy} onChange={setDeskPolicy} />
      {s.errorBox}
      <StepNav primary="Continue" busy={s.busy} disabled={taken} back={() => void s.run(() => save({ step: 4 }))} />
    </form>
  );
}
