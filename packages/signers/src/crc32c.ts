/**
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum Google Cloud KMS puts on
 * what it receives and returns (its "verifying end-to-end data integrity" guide). Node's zlib
 * has CRC32 (another polynomial) only; the table below is the standard byte-wise one.
 */
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
