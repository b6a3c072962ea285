import type { ContractName } from "@points/schema";
import { decodeRevert, revertData, type DecodedRevert } from "@points/contracts/program/abi";
import { ApiError } from "../errors.js";
import { roleName } from "./contracts.js";

export { decodeRevert, revertData, type DecodedRevert };

type Called = ContractName | "asset";

/**
 * A call the chain refused: the ApiError the caller gets, carrying the decoded revert (undefined
 * when the revert data names no known error), so callers branch on `revert.name`, never on text.
 */
export class RevertError extends ApiError {
  constructor(
    readonly revert: DecodedRevert | undefined,
    ...error: ConstructorParameters<typeof ApiError>
  ) {
    super(...error);
  }
}

/**
 * Turns a chain call's failure into the API's answer, or undefined when it is not a revert
 * (a dead node is left to the caller: CHAIN_UNAVAILABLE).
 * - `build` (a transaction's simulation): a missing on-chain role is 403 MISSING_ROLE naming
 *   contract, role and account; any other revert 422 WOULD_REVERT with the decoded error.
 * - `read` (a view): a known "…NotFound" error is 404; any other decoded revert 422.
 */
export function revertToApiError(
  e: unknown,
  how: "build" | "read",
  called: Called,
  alsoCalled?: Called,
): RevertError | undefined {
  const data = revertData(e);
  const decoded = data ? decodeRevert(data, called, alsoCalled) : undefined;
  if (how === "read") {
    if (!decoded) return undefined;
    const code = /NotFound$/.test(decoded.name) ? "NOT_FOUND" : "WOULD_REVERT";
    return new RevertError(decoded, code, `${decoded.contract}.${decoded.name}`, decoded);
  }
  if ((e as { code?: string }).code !== "CALL_EXCEPTION" && data === undefined) return undefined;
  if (!decoded) {
    const reason = (e as { shortMessage?: string }).shortMessage ?? "execution reverted";
    return new RevertError(undefined, "WOULD_REVERT", `the transaction would revert: ${reason}`, {
      contract: called,
      name: null,
      data,
    });
  }
  if (decoded.name === "AccessControlUnauthorizedAccount") {
    const role = roleName(String(decoded.args.neededRole));
    return new RevertError(decoded, "MISSING_ROLE", `${decoded.args.account} lacks ${role} on ${decoded.contract}`, {
      contract: decoded.contract,
      role,
      account: decoded.args.account,
      error: decoded,
    });
  }
  if (decoded.name === "CallerNotAuthorized") {
    const role = roleName(String(decoded.args.role));
    return new RevertError(
      decoded,
      "MISSING_ROLE",
      `${decoded.args.caller} holds neither MANAGER_ROLE nor ${role} on ${decoded.contract}`,
      {
        contract: decoded.contract,
        role,
        anyOf: ["MANAGER_ROLE", role],
        account: decoded.args.caller,
        error: decoded,
      },
    );
  }
  const args = Object.entries(decoded.args)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return new RevertError(
    decoded,
    "WOULD_REVERT",
    `the transaction would revert: ${decoded.contract}.${decoded.name}(${args})`,
    decoded,
  );
}
