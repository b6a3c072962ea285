import { useEffect, useState } from "react";
import { useWallet } from "../wallet/wallet";
import { useDash, type ProgramView } from "./context";
import { tokenFacts } from "./preflight/chainReads";
import { registrySymbol } from "./tokenSymbol";

/**
 * A program's token symbol: the registry's public metadata when it names one, else what the
 * Points token says on chain (read through the wallet); null until known, and without a program.
 */
export function useProgramTokenSymbol(program: ProgramView | null): string | null {
  const wallet = useWallet();
  const known = program ? registrySymbol(program.metadata) : null;
  const points = program?.points ?? null;
  const [onChain, setOnChain] = useState<{ points: string; symbol: string } | null>(null);
  const provider = known === null && points !== null ? wallet.provider() : null;
  useEffect(() => {
    if (!provider || points === null) return;
    let live = true;
    tokenFacts(provider, points).then(
      (t) => live && setOnChain({ points, symbol: t.symbol }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [points, provider !== null]);
  return known ?? (onChain && onChain.points === points ? onChain.symbol : null);
}

/** The dashboard program's token symbol, read once by the dashboard (useProgramTokenSymbol); null until known. */
export const useTokenSymbol = (): string | null => useDash().tokenSymbol;
