/**
 * The check every main-wallet signer runs before a signature leaves it: the signature must recover the
 * wallet that is supposed to have signed. A custody action signed by the wrong key would be refused by
 * the service at best; checking here turns that into a typed error before anything is sent, and catches
 * a signer (an offline tool, a device) that signed different data than it was shown.
 */
import { TypedDataError, digestOf, parseSignatureHex, recoverDigestSigner, type TypedData } from '../../shared/eip712/index.js';
import { sameAddress, toChecksumAddress } from '../../shared/identity/index.js';
import { SignerError } from './signerError.js';

/**
 * Throws SignerError SIGNATURE_MALFORMED (not 65 bytes, v not 27/28, high s) or SIGNATURE_MISMATCH
 * (recovers another address); returns the signature in lowercase hex when it recovers expectedAddress.
 */
export function verifySignature(data: TypedData, signature: string, expectedAddress: string): string {
  const expected = toChecksumAddress(expectedAddress, 'expectedAddress');
  try {
    parseSignatureHex(signature);
  } catch (err) {
    if (err instanceof TypedDataError) throw new SignerError('SIGNATURE_MALFORMED', `malformed signature: ${err.message}; nothing was sent`);
    throw err;
  }
  // digestOf refuses typed data whose domain or struct differs from the service's (a TypedDataError).
  const recovered = recoverDigestSigner(digestOf(data), signature);
  if (!sameAddress(recovered, expected)) {
    throw new SignerError(
      'SIGNATURE_MISMATCH',
      `the signature of ${data.primaryType} recovers ${recovered}, not the wallet ${expected}: it was made by another key or over different data; nothing was sent`,
    );
  }
  return signature.toLowerCase();
}
