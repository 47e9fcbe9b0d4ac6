/** The main wallet's custody signer (keystore, environment, offline, Ledger, paper): channels wallet:* and ledger:*. */
import { z } from 'zod';
import { address, dec, empty, opaqueId } from './fields.js';

/** Ledger derivation schemes (the same list main offers; a unit test keeps them equal). */
export const LEDGER_SCHEMES = [
  { scheme: 'ledger-live', label: 'Ledger Live', pattern: "m/44'/60'/N'/0/0" },
  { scheme: 'legacy', label: 'Legacy (MEW / MyCrypto)', pattern: "m/44'/60'/0'/N" },
  { scheme: 'bip44', label: 'BIP 44 standard (MetaMask)', pattern: "m/44'/60'/0'/0/N" },
] as const;
export const LedgerSchemeSchema = z.enum(['ledger-live', 'legacy', 'bip44']);

/** 'paper': the simulator's paper main wallet (its key in the OS keychain; it signs on the sim profile only). */
export const SIGNER_KINDS = ['keystore', 'env', 'offline', 'ledger', 'trezor', 'paper'] as const;
export const SignerKindSchema = z.enum(SIGNER_KINDS);

export const WalletViewSchema = z.object({
  /** The main wallet (remembered across restarts), or null before onboarding. */
  address: address.nullable(),
  /** The connected custody signer of this session, or null (custody actions then need a reconnect). */
  signer: z
    .object({
      kind: SignerKindSchema,
      /** For people: "Keystore wallet.json", "Ledger Nano X m/44'/60'/0'/0/0", "Environment PERPS_KEY", "Offline signer". */
      label: z.string(),
      /** Ledger derivation path. */
      path: z.string().nullable(),
    })
    .nullable(),
  /** The last signer kind used with this wallet, to offer the same one after a restart. */
  last_signer_kind: SignerKindSchema.nullable(),
});
export type WalletView = z.infer<typeof WalletViewSchema>;

export const KeystoreChoiceSchema = z
  .object({
    /** Opaque handle for wallet:connectKeystore; the file path itself never leaves main. */
    file_token: opaqueId,
    file_name: z.string(),
    /** The address the keystore declares (read without decrypting), to show whose password is asked. */
    address: address.nullable(),
  })
  .nullable();
export type KeystoreChoice = z.infer<typeof KeystoreChoiceSchema>;

export const ConnectKeystoreRequestSchema = z.strictObject({
  file_token: opaqueId,
  /** Used once to decrypt and dropped; never stored, returned or logged. */
  password: z.string().max(1024),
});

export const ConnectEnvRequestSchema = z.strictObject({
  /**
   * Name of an environment variable of the app's process holding the key (automation only). Only names
   * starting with PERPS_ are eligible: the page must not be able to probe the app's other variables
   * (whether HOME or a cloud token is set, and what shape it has).
   */
  variable: z.string().regex(/^PERPS_[A-Z0-9_]{1,58}$/, 'expected an environment variable named PERPS_… (A-Z, 0-9, _)'),
});

export const ConnectOfflineRequestSchema = z.strictObject({ address });

export const DisconnectRequestSchema = z.strictObject({
  /** Also forget the wallet address (back to onboarding). Default false: only the signer is dropped. */
  forget: z.boolean().optional(),
});

export const LedgerDevicesSchema = z.object({ devices: z.array(z.object({ device_id: z.string(), label: z.string() })) });
export const LedgerListAccountsRequestSchema = z.strictObject({
  device_id: z.string().min(1).max(512),
  scheme: LedgerSchemeSchema,
  start: z.number().int().min(0).max(0x7fffffff).optional(),
  count: z.number().int().min(1).max(10).optional(),
});
export const LedgerAccountsSchema = z.object({ accounts: z.array(z.object({ path: z.string(), index: z.number().int(), address })) });
export const LedgerConnectRequestSchema = z.strictObject({
  device_id: z.string().min(1).max(512),
  /** Derivation path, e.g. m/44'/60'/0'/0/0; the address is shown on the device for confirmation. */
  path: z.string().min(1).max(64),
});

// ---- paper wallet (sim profile only: one click from nothing to a funded, trading-ready account) ---------

export const CreatePaperWalletRequestSchema = empty;
export const PaperWalletResultSchema = z.object({
  /** The session's wallet, now the new paper wallet with its signer connected. */
  wallet: WalletViewSchema,
  /** The trading key created in the keychain and authorized by the paper wallet. */
  agent: address,
  /** The account's free balance once the faucet's deposit was credited. */
  free_balance: dec,
});
export type PaperWalletResult = z.infer<typeof PaperWalletResultSchema>;
