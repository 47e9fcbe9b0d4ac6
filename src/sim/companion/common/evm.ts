/** Address checks shared by the companion services. */
import { getAddress, isAddress } from 'ethers';

/**
 * True for `0x` + 40 hex whose checksum, if mixed case, is valid (EIP-55). A mistyped mixed-case
 * address is rejected rather than silently accepted, as wallets and real APIs do.
 */
export function isEvmAddress(s: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(s) && isAddress(s);
}

export function isTxHash(s: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(s);
}

export function checksum(address: string): string {
  return getAddress(address);
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
