import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SiweMessage } from "siwe";
import { siweMessage, type SiweFields } from "../../src/wallet/siweMessage.js";

const base: SiweFields = {
  domain: "console.example.com",
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  statement: "Prove this wallet to the points console.",
  uri: "https://console.example.com/console/",
  version: "1",
  chainId: 31337,
  nonce: "k3JfQ8r2Lm9xWq1z",
  issuedAt: "2026-11-26T22:30:00.000Z",
  expirationTime: "2026-11-26T22:40:00.000Z",
};

describe("the console's EIP-4361 text: what the siwe package writes and the server parses", () => {
  const cases: [string, SiweFields][] = [
    ["withAnExpiry", base],
    ["withoutAnExpiry", { ...base, expirationTime: undefined }],
    [
      "onALoopbackHostWithAPort",
      { ...base, domain: "127.0.0.1:3000", uri: "http://127.0.0.1:3000/console/", chainId: 1 },
    ],
  ];
  for (const [name, fields] of cases) {
    it(`siweMessage_${name}_isByteForByteSiwesPrepareMessage`, () => {
      const text = siweMessage(fields);
      assert.equal(text, new SiweMessage({ ...fields }).prepareMessage());
      // And parsing it back gives every field (the server's side).
      const parsed = new SiweMessage(text);
      assert.deepEqual(
        [
          parsed.domain,
          parsed.address,
          parsed.statement,
          parsed.uri,
          parsed.chainId,
          parsed.nonce,
          parsed.expirationTime,
        ],
        [
          fields.domain,
          fields.address,
          fields.statement,
          fields.uri,
          fields.chainId,
          fields.nonce,
          fields.expirationTime,
        ],
      );
    });
  }
});
