/**
 * The Ethereum app client (hw-app-eth), constructed so that it never calls Ledger's servers.
 *
 * hw-app-eth's default load config (lib/services/ledger/loadConfig.js) points at Ledger's services, and
 * signEIP712Message uses two of them before it sends the message:
 *   - getFiltersForMessage (@ledgerhq/evm-tools, message/EIP712) GETs `${calServiceURL}/v1/dapps` to look
 *     up display filters (field labels signed by Ledger) for the message's schema hash; with calServiceURL
 *     null it skips the request and falls back to staticEIP712SignaturesV1/V2, null here, so no filters;
 *   - findERC20SignaturesInfo (lib/services/ledger/erc20.js) GETs
 *     `${cryptoassetsBaseURL}/evm/${chainId}/erc20-signatures.json`; with cryptoassetsBaseURL null it
 *     returns null without a request.
 * The other URLs serve transaction signing (NFT metadata, plugins); they are nulled too, so nothing this
 * client does can reach out. Without filters the device still clear-signs: it shows every domain and
 * message field by its name and value (Ledger calls that the generic EIP-712 display). The service's
 * structs have no labels in Ledger's registry anyway, so the lookup could only leak which wallet signs
 * what, and when.
 */
import type EthApp from '@ledgerhq/hw-app-eth';
import { createRequire } from 'node:module';
import { cjsDefault, type LedgerTransport } from './transport.js';

type LoadConfig = NonNullable<ConstructorParameters<typeof EthApp>[2]>;

export const OFFLINE_LOAD_CONFIG: Readonly<LoadConfig> = Object.freeze({
  nftExplorerBaseURL: null,
  pluginBaseURL: null,
  extraPlugins: null,
  cryptoassetsBaseURL: null,
  calServiceURL: null,
  staticERC20Signatures: null,
  staticEIP712SignaturesV1: null,
  staticEIP712SignaturesV2: null,
});

/** The calls the signer makes; a narrow type keeps the rest of hw-app-eth (transactions, Stark) out of reach. */
export type LedgerEthApp = Pick<EthApp, 'getAddress' | 'signEIP712Message' | 'signEIP712HashedMessage'>;

const requireCjs = createRequire(import.meta.url);

/** hw-app-eth is loaded on first use (see transport.ts for why require and not import). */
export function createEthApp(transport: LedgerTransport): LedgerEthApp {
  const Eth = cjsDefault<typeof EthApp>(requireCjs('@ledgerhq/hw-app-eth'));
  // "w0w" is hw-app-eth's own default scramble key (ignored by HID transports); passed only because the
  // load config is the third argument.
  return new Eth(transport, 'w0w', { ...OFFLINE_LOAD_CONFIG });
}
