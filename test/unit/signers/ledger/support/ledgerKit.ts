/**
 * The Ledger test libraries, loaded as CommonJS for the same reason the app does (see
 * src/main/signers/ledger/transport.ts): their ES builds do not load under Node's ES module loader.
 * Loading them the same way also keeps one copy of the Transport base class in play.
 */
import { createRequire } from 'node:module';
import type TransportType from '@ledgerhq/hw-transport';
import type * as Mocker from '@ledgerhq/hw-transport-mocker';
import type * as LedgerErrors from '@ledgerhq/errors';
import type EthApp from '@ledgerhq/hw-app-eth';
import { cjsDefault } from '../../../../../src/main/signers/ledger/transport.js';

const requireCjs = createRequire(import.meta.url);

export const Transport = cjsDefault<typeof TransportType>(requireCjs('@ledgerhq/hw-transport'));
export type Transport = TransportType;
export const mocker = requireCjs('@ledgerhq/hw-transport-mocker') as typeof Mocker;
export const ledgerErrors = requireCjs('@ledgerhq/errors') as typeof LedgerErrors;
export const Eth = cjsDefault<typeof EthApp>(requireCjs('@ledgerhq/hw-app-eth'));
