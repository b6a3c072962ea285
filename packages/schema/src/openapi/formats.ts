import { MAX_UINT256 } from "../primitives.js";

/** The named formats the document's schemas use, for validators and generators to register. */
export const NAMED_FORMATS = {
  "eip55-address": "0x + 40 hex digits, all lowercase, all uppercase, or mixed case with a valid EIP-55 checksum",
  uint256: `A decimal integer string of at most ${MAX_UINT256} (2^256 - 1)`,
  email: "An e-mail address: local part, @, a domain with a dot and a top-level name of 2+ letters",
};
