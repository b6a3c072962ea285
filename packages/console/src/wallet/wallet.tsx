import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { BrowserProvider, JsonRpcSigner } from "ethers";

/**
 * ethers, loaded after sign-in (loadEthers), not with the sign-in page. Pages render without it:
 * the wallet's account and chain are shown only once it is there, so a page that reads through
 * provider() (null until then) reads when they appear.
 */
let ethers: typeof import("./ethersParts") | null = null;
export const loadEthers = async () => (ethers ??= await import("./ethersParts"));
/** EIP-55 once ethers is there; before, the address as the wallet gave it (only shown, never sent). */
const checksum = (a: string) => (ethers ? ethers.getAddress(a) : a);

/** The injected provider of EIP-1193 (window.ethereum). */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: string, listener: (...args: any[]) => void): void;
  removeListener?(event: string, listener: (...args: any[]) => void): void;
}

declare global {
  interface Window {
    ethereum?: Eip1193;
  }
}

export interface WalletState {
  /** Whether the browser has an injected provider at all. */
  available: boolean;
  address: string | null;
  chainId: number | null;
  connect(): Promise<string>;
  /** A signer of the current account; transactions go through eth_sendTransaction. */
  signer(): Promise<JsonRpcSigner>;
  /** The wallet's provider, for reads the API does not offer (events). */
  provider(): BrowserProvider | null;
  switchChain(chainId: number): Promise<void>;
}

const WalletContext = createContext<WalletState | null>(null);

const toChainId = (hex: unknown) => Number(BigInt(String(hex)));

export function WalletProvider({ children }: { children: ReactNode }) {
  const eth = typeof window === "undefined" ? undefined : window.ethereum;
  const [address, setAddress] = useState<string | null>(null);
  const [chainId, setChainId] = useState<number | null>(null);

  // Already-authorized accounts come back without a prompt (eth_accounts never asks).
  useEffect(() => {
    if (!eth) return;
    let live = true;
    const onAccounts = (accounts: string[]) => live && setAddress(accounts[0] ? checksum(accounts[0]) : null);
    const onChain = (id: unknown) => live && setChainId(toChainId(id));
    const ready = loadEthers();
    Promise.all([eth.request({ method: "eth_accounts" }), ready]).then(
      ([a]) => onAccounts(a as string[]),
      () => undefined,
    );
    Promise.all([eth.request({ method: "eth_chainId" }), ready]).then(
      ([id]) => onChain(id),
      () => undefined,
    );
    eth.on?.("accountsChanged", onAccounts);
    eth.on?.("chainChanged", onChain);
    return () => {
      live = false;
      eth.removeListener?.("accountsChanged", onAccounts);
      eth.removeListener?.("chainChanged", onChain);
    };
  }, [eth]);

  const connect = useCallback(async () => {
    if (!eth) throw new Error("No browser wallet found. Install one (any EIP-1193 wallet) and reload.");
    const accounts = (await eth.request({ method: "eth_requestAccounts" })) as string[];
    if (!accounts[0]) throw new Error("The wallet shared no account.");
    const addr = (await loadEthers()).getAddress(accounts[0]);
    setAddress(addr);
    setChainId(toChainId(await eth.request({ method: "eth_chainId" })));
    return addr;
  }, [eth]);

  const value = useMemo<WalletState>(
    () => ({
      available: !!eth,
      address,
      chainId,
      connect,
      // "any": the wallet may change chains between calls; a fresh provider per use sees it.
      provider: () => (eth && ethers ? new ethers.BrowserProvider(eth, "any") : null),
      async signer() {
        if (!eth || !address) throw new Error("Connect a wallet first.");
        return new (await loadEthers()).BrowserProvider(eth, "any").getSigner(address);
      },
      async switchChain(id: number) {
        if (!eth) return;
        await eth.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x" + id.toString(16) }] });
      },
    }),
    [eth, address, chainId, connect],
  );
  return <WalletContext.Provider value={value}>{children}</WalletContext.Provider>;
}

export function useWallet(): WalletState {
  const w = useContext(WalletContext);
  if (!w) throw new Error("useWallet outside WalletProvider");
  return w;
}

export const short = (addr: string) => `${addr.slice(0, 6)}…${addr.slice(-4)}`;
