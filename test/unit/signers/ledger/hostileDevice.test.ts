/**
 * A hostile Ledger (issue 36, item 9 for the Ledger): what the device or its transport says reaches a
 * terminal (`perps ... --signer ledger` prints the Ethereum app's version), a notification or the page
 * (the wallet's label, every LedgerError message). ESC and OSC sequences (clear screen, an OSC 52
 * clipboard write, a forged "signed OK" line), C1 controls (0x9B is CSI to an 8-bit terminal), bidi
 * overrides and line breaks in the app name, the app version, the product name or a transport's error
 * text are removed through src/shared/safeText.ts; a name that only reads "Ethereum" once cleaned is not
 * the Ethereum app.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openCliLedgerSigner } from '../../../../src/cli/ledgerSigning.js';
import { assertEthereumApp, getAppAndVersion } from '../../../../src/main/signers/ledger/appCheck.js';
import { LedgerError, toLedgerError } from '../../../../src/main/signers/ledger/ledgerErrors.js';
import { deviceName, type LedgerTransport } from '../../../../src/main/signers/ledger/transport.js';
import { EthAppEmulator, walletAt } from './support/ethAppEmulator.js';

const PATH = "m/44'/60'/0'/0/0";
const CLEAR_SCREEN = '\u001b[2J\u001b[H';
const CLIPBOARD = '\u001b]52;c;cGVycHMgc2VuZCAweGV2aWw=\u0007';
const FORGED = '\r\nsigned OK, sending withdrawal to 0xEVIL';
const C1_CSI = '\u009b31m';
const BIDI = '\u202e\u2066';
/** Nothing a terminal or a screen reader acts on: no C0/C1 control, no bidi or invisible reorderer. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

function hostile(text: string): string {
  return `${CLEAR_SCREEN}${text}${CLIPBOARD}${C1_CSI}${FORGED}`;
}

describe('a hostile Ledger', () => {
  it('the app version and name it reports are cleaned before anything shows them', async () => {
    const app = await getAppAndVersion(new EthAppEmulator({ appName: 'Ethereum', appVersion: `1.13${CLIPBOARD}${C1_CSI}` }));
    expect(app.version).not.toMatch(UNSAFE);
    expect(app.version).toBe('1.13]52;c;cGVycHMgc2VuZCAweGV2aWw=31m'.slice(0, 32));
    expect(app.name).toBe('Ethereum');
  });

  it('a name that reads "Ethereum" only once cleaned is not the Ethereum app; the refusal shows it cleaned', async () => {
    const device = new EthAppEmulator({ appName: `Eth\u001bereum` });
    const err = await assertEthereumApp(device).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LedgerError);
    expect((err as LedgerError).code).toBe('ETH_APP_NOT_OPEN');
    expect((err as LedgerError).message).toBe('The Ethereum (named with hidden characters) app is open on the Ledger: quit it, open the Ethereum app, then try again.');
    const other = await assertEthereumApp(new EthAppEmulator({ appName: hostile('Evil') })).catch((e: LedgerError) => e);
    expect((other as LedgerError).message).not.toMatch(UNSAFE);
    expect((other as LedgerError).message).toMatch(/^The \[2J\[HEvil.* app is open on the Ledger/);
  });

  it("a transport's error text (which may quote the device) is cleaned in every LedgerError", () => {
    const e = toLedgerError(new Error(hostile(`device says ${BIDI}KO`)), 'sign-clear');
    expect(e.code).toBe('DEVICE_ERROR');
    expect(e.message).not.toMatch(UNSAFE);
    expect(e.message).toContain('device says KO');
    expect(new LedgerError('DEVICE_ERROR', hostile('x')).message).not.toMatch(UNSAFE);
  });

  it('the product name the transport reports labels the wallet cleaned', () => {
    const transport = { deviceModel: { productName: `Ledger Nano X${BIDI}${CLEAR_SCREEN}${FORGED}` } } as unknown as LedgerTransport;
    expect(deviceName(transport)).toBe('Ledger Nano X[2J[H signed OK, sending withdrawal to 0xEVIL');
    expect(deviceName({ deviceModel: { productName: '\u001b\u202e' } } as unknown as LedgerTransport)).toBe('Ledger');
  });

  it('`--signer ledger` prints the app version it read without a control or bidi character', async () => {
    const stderr = new PassThrough();
    let printed = '';
    stderr.on('data', (c: Buffer) => (printed += c.toString('utf8')));
    await openCliLedgerSigner({
      wallet: walletAt(PATH).address,
      path: PATH,
      allowBlindSigning: false,
      stdin: new PassThrough(),
      stderr,
      openTransport: async () => new EthAppEmulator({ appVersion: `1.13.1${CLEAR_SCREEN}${C1_CSI}\u0085` }),
    });
    expect(printed).toBe('Ledger: Ethereum app 1.13.1[2J[H31m is open.\n');
  });
});
