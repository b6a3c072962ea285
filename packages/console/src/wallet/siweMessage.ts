/** The fields of a Sign-In with Ethereum message the console signs (EIP-4361). */
export interface SiweFields {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
}

/**
 * The EIP-4361 text of `f`, byte for byte what the `siwe` package's `prepareMessage` writes (a test compares
 * them). The console writes it itself because `siwe` pulls in all of ethers (205 kB gzip) for this template;
 * the server still parses and verifies with `siwe`.
 */
export function siweMessage(f: SiweFields): string {
  const lines = [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    "",
    f.statement,
    "",
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  ];
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  return lines.join("\n");
}
