import { Transaction, getBytes, type JsonRpcProvider, type Wallet } from "ethers";
import type { Page } from "playwright-core";

/**
 * An EIP-1193 provider for the page, backed by a local test key in Node: `window.ethereum`
 * forwards every request to `__eip1193`, which signs eth_sendTransaction with an ethers Wallet
 * and passes everything else to the local node, as a browser wallet would.
 */
export interface TestWallet {
  /** The account the page sees; switching emits accountsChanged like a wallet does. */
  use(wallet: Wallet): Promise<void>;
  readonly account: Wallet;
  /** Every method the page asked for, in order (to assert e.g. eth_sendTransaction was used). */
  readonly calls: string[];
  /** The wallet signs the next `sent` transactions, then refuses one (code 4001), as a person can. */
  rejectAfter(sent: number): void;
}

// A string, not a function: tsx's transform would add helpers the page does not have.
const INIT = `(() => {
  const listeners = {};
  window.ethereum = {
    isTestWallet: true,
    async request({ method, params }) {
      // Looked up per call: the binding Playwright exposes may be installed after this script.
      const answer = JSON.parse(await window.__eip1193(JSON.stringify({ method, params: params ?? [] })));
      if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
      return answer.result;
    },
    on(event, fn) {
      (listeners[event] ??= []).push(fn);
    },
    removeListener(event, fn) {
      listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn);
    },
    emit(event, arg) {
      for (const fn of listeners[event] ?? []) fn(arg);
    },
  };
})();`;

export async function injectWallet(page: Page, provider: JsonRpcProvider, initial: Wallet): Promise<TestWallet> {
  let account = initial;
  let authorized = false;
  const calls: string[] = [];
  let rejectIn: number | null = null;
  const chainId = "0x" + (await provider.getNetwork()).chainId.toString(16);

  async function handle(method: string, params: any[]): Promise<unknown> {
    switch (method) {
      case "eth_requestAccounts":
        authorized = true;
        return [account.address];
      case "eth_accounts":
        return authorized ? [account.address] : [];
      case "eth_chainId":
        return chainId;
      case "wallet_switchEthereumChain":
        if (params[0]?.chainId !== chainId) throw { code: 4902, message: "Unrecognized chain" };
        return null;
      case "personal_sign": {
        // Sign-In with Ethereum: the console asks the wallet to sign the EIP-4361 message.
        if (String(params[1]).toLowerCase() !== account.address.toLowerCase()) {
          throw { code: 4100, message: "Unknown account" };
        }
        return account.signMessage(getBytes(params[0]));
      }
      case "eth_signTypedData_v4": {
        // The redemption desk: a manager signs its instruction as EIP-712 typed data.
        if (String(params[0]).toLowerCase() !== account.address.toLowerCase()) {
          throw { code: 4100, message: "Unknown account" };
        }
        const { domain, types, message } = JSON.parse(params[1]);
        delete types.EIP712Domain;
        return account.signTypedData(domain, types, message);
      }
      case "eth_sendTransaction": {
        if (rejectIn !== null && rejectIn-- === 0) {
          rejectIn = null;
          throw { code: 4001, message: "User rejected the request." };
        }
        const p = params[0];
        if (p.from.toLowerCase() !== account.address.toLowerCase()) throw { code: 4100, message: "Unknown account" };
        const tx = Transaction.from({
          type: 2,
          chainId: BigInt(chainId),
          to: p.to,
          data: p.data ?? "0x",
          value: BigInt(p.value ?? 0),
          nonce: Number(p.nonce ?? (await provider.getTransactionCount(account.address, "pending"))),
          gasLimit: BigInt(p.gas ?? p.gasLimit),
          maxFeePerGas: BigInt(p.maxFeePerGas),
          maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas),
        });
        tx.signature = account.signingKey.sign(tx.unsignedHash);
        return provider.send("eth_sendRawTransaction", [tx.serialized]);
      }
      default:
        return provider.send(method, params);
    }
  }

  await page.exposeFunction("__eip1193", async (req: string) => {
    const { method, params } = JSON.parse(req);
    calls.push(method);
    try {
      return JSON.stringify({ result: await handle(method, params) });
    } catch (e: any) {
      const err = e?.error ?? e;
      return JSON.stringify({
        error: { code: err?.code ?? -32603, message: err?.message ?? String(e), data: err?.data },
      });
    }
  });
  await page.addInitScript({ content: INIT });

  return {
    get account() {
      return account;
    },
    calls,
    rejectAfter(sent: number) {
      rejectIn = sent;
    },
    async use(wallet: Wallet) {
      account = wallet;
      await page.evaluate(`window.ethereum.emit("accountsChanged", [${JSON.stringify(wallet.address)}])`);
    },
  };
}
