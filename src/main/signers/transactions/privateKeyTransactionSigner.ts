/**
 * The main wallet's transaction signer when the app holds its key in memory (a keystore unlocked this
 * session, or an env key): the key stays inside the PrivateKey object, which signs the transaction's
 * unsigned hash and never reveals its bytes. Used by KeystoreSigner and EnvKeySigner so the app signs a
 * bridge or swap with the same unlocked wallet, without asking for the password again and without the
 * key leaving the signer that holds it.
 */
import { Signature, Transaction, getBytes } from 'ethers';
import type { PrivateKey } from '../secp256k1.js';
import { toTransactionLike, verifySignedTransaction, type TransactionSigner, type UnsignedTransaction } from './transactionSigner.js';

export function privateKeyTransactionSigner(kind: 'keystore' | 'env', key: PrivateKey): TransactionSigner {
  const address = key.address;
  return {
    kind,
    address,
    async signTransaction(tx: UnsignedTransaction): Promise<string> {
      const unsigned = Transaction.from(toTransactionLike(tx));
      const signature = key.signDigest(getBytes(unsigned.unsignedHash));
      unsigned.signature = Signature.from(signature);
      return verifySignedTransaction(unsigned.serialized, tx, address);
    },
  };
}
