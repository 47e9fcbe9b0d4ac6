/**
 * `perps withdraw --signer trezor` (the real program, bin/perps.js in a child process) against the
 * simulator over loopback HTTP, with the fake Trezor behind a stand-in for the emulator's UDP port
 * (PERPS_TREZOR_TRANSPORT=udp:127.0.0.1:PORT). The PIN prompt is driven through stdin as a person at
 * a terminal would: reading the scrambled matrix off the device and typing positions.
 *
 * Where each run happens (issue 37): the runs with a PIN typed on stdin are children (a person at a
 * terminal; exit 0 and exit 1), and so is one refusal (a bad derivation path, exit 2) as a shell sees it.
 * The runs with nothing to type (the Safe 5 signing, the rejection, the refused models and settings, no
 * device) are `perps` in this process (perpsInProcess.ts: same main, output, exit code and variables, set
 * for the run and restored after), talking to the same fake emulator over loopback UDP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startPerps, type Interact, type PerpsRun } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { SimHarness } from '../support/keysMoney.js';
import { FakeTrezor, type FakeTrezorOptions } from '../../support/trezor/fakeTrezor.js';
import { startFakeEmulator, type FakeEmulator } from '../../support/trezor/fakeEmulator.js';

const PATH = "m/44'/60'/0'/0/0";
const WALLET = FakeTrezor.addressAt(PATH);
const SLOW = { timeout: 120_000 };

let h: SimHarness;
const service = testService('cli-trezor');
const dataDir = tempDir('cli-trezor');

beforeAll(async () => {
  h = await SimHarness.boot();
  await h.fund(WALLET, '100');
});

afterAll(async () => {
  await wipeService(service);
  await h.stop();
});

type Run = PerpsRun & { json: ReturnType<typeof jsonOf> };

/**
 * Runs perps against the simulator and the given Trezor transport: with `answer` (the person at the
 * terminal) or `child`, the real bin/perps.js in a child process; otherwise in this process.
 */
async function perps(args: string[], transport: string, answer?: Interact, o: { child?: boolean } = {}): Promise<Run> {
  const vars = { PERPS_BASE_URL: h.urls.base_url, PERPS_VENUE_URL: h.urls.venue_info_url, PERPS_DATA_DIR: dataDir, PERPS_KEYCHAIN_SERVICE: service, PERPS_TREZOR_TRANSPORT: transport };
  const run = answer !== undefined || o.child === true ? await startPerps(args, { ...process.env, ...vars }, 90_000, answer ?? (() => undefined)).done : await perpsInProcess(args, vars);
  return { ...run, json: jsonOf(run) };
}

async function withDevice<T>(options: FakeTrezorOptions, run: (device: FakeTrezor, transport: string) => Promise<T>): Promise<T> {
  const device = new FakeTrezor(options);
  const emulator: FakeEmulator = await startFakeEmulator(device);
  try {
    return await run(device, `udp:127.0.0.1:${emulator.port}`);
  } finally {
    await emulator.close();
  }
}

describe('perps withdraw --signer trezor', SLOW, () => {
  it('a Safe 5 signs the withdrawal field by field and it completes on the simulator', async () => {
    await withDevice({ model: 'T3T1' }, async (device, transport) => {
      const r = await h.advanceDuring(perps(['withdraw', '--wallet', WALLET, '--amount', '10', '--signer', 'trezor', '--wait', '--json'], transport), 500, 50);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json['withdrawal']).toMatchObject({ amount: '10', status: 'COMPLETED', phase: 'DONE' });
      expect(r.stderr).toMatch(/Trezor: Trezor Safe 5 "Test Trezor", firmware 2\.8\.1, via emulator 127\.0\.0\.1:\d+/);
      expect(r.stderr).toMatch(/confirm signing on the Trezor/);
      // The device itself showed the amount in USDC base units and the address it signs with.
      const shown = device.screens.map((s) => `${s.title}=${s.lines.join('|')}`);
      expect(shown).toContain('amount=10000000');
      expect(shown).toContain(`Receive address=${WALLET}`);
    });
  });

  it('a Model One: the PIN typed as matrix positions on stdin, the two hashes shown, the withdrawal completes', async () => {
    await withDevice({ model: 'T1B1', version: [1, 12, 1], pin: '2581' }, async (device, transport) => {
      let typed: string | undefined;
      const r = await h.advanceDuring(
        perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--allow-blind-signing', '--wait', '--json'], transport, (stderr, write) => {
          if (typed === undefined && stderr.includes('PIN positions: ') && device.shownMatrix) {
            const matrix = device.shownMatrix;
            typed = [...'2581'].map((d) => String(matrix.indexOf(d) + 1)).join('');
            write(typed + '\n');
          }
        }),
        500,
        50,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.json['withdrawal']).toMatchObject({ amount: '5', status: 'COMPLETED' });
      expect(r.stderr).toMatch(/type the POSITION of each/);
      expect(r.stderr).toMatch(/7 8 9\n {4}4 5 6\n {4}1 2 3/);
      expect(r.stderr).toMatch(/SIGNING BY HASHES[\s\S]*domain hash \(domain separator\): 0x[0-9a-f]{64}[\s\S]*message hash: +0x[0-9a-f]{64}/);
      // Positions went to the device; the PIN's digits appear nowhere in what the program printed.
      expect(typed).toMatch(/^[1-9]{4}$/);
      // As a word of its own: hashes, ids and millisecond nonces in the output hold '2581' by chance at times
      // (a shuffled run met one), and a printed PIN would stand alone.
      expect(r.stderr + r.stdout).not.toMatch(/(^|[^0-9a-zA-Z])2581($|[^0-9a-zA-Z])/);
      const domainShown = device.screens.find((s) => s.name === 'confirm_domain_hash')?.lines[0];
      expect(r.stderr).toContain(domainShown);
    });
  });

  it('a wrong PIN fails the command (exit 1) and sends nothing', async () => {
    await withDevice({ model: 'T1B1', version: [1, 12, 1], pin: '2581' }, async (_device, transport) => {
      let sent = false;
      const r = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--allow-blind-signing', '--json'], transport, (stderr, write) => {
        if (!sent && stderr.includes('PIN positions: ')) {
          sent = true;
          write('1111\n');
        }
      });
      expect(r.code).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'TREZOR_PIN_INVALID', exit_code: 1 });
    });
  });

  it('rejected on the device: exit 1, TREZOR_REJECTED_ON_DEVICE', async () => {
    await withDevice({ decide: (s) => (s.name === 'confirm_typed_data_final' ? 'reject' : 'confirm') }, async (_device, transport) => {
      const r = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--json'], transport);
      expect(r.code).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'TREZOR_REJECTED_ON_DEVICE' });
    });
  });

  it('Safe 7 and too-old firmware are refused before anything is signed', async () => {
    await withDevice({ model: 'T3W1' }, async (_d, transport) => {
      const r = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--json'], transport);
      expect(r.json.error).toMatchObject({ code: 'TREZOR_UNSUPPORTED_MODEL' });
      expect(String(r.json.error?.['hint'])).toMatch(/Safe 7/);
    });
    await withDevice({ model: 'T2T1', version: [2, 4, 2] }, async (_d, transport) => {
      const r = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--json'], transport);
      expect(r.json.error).toMatchObject({ code: 'TREZOR_FIRMWARE_TOO_OLD' });
    });
  });

  it('hostile or bad settings are usage errors (exit 2); no emulator is NO_DEVICE (exit 1)', async () => {
    const badPath = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor:m/44h/0h', '--json'], 'udp:127.0.0.1:9', undefined, { child: true });
    expect(badPath.code).toBe(2);
    expect(badPath.json.error).toMatchObject({ code: 'INVALID_TREZOR_PATH' });
    const remote = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--json'], 'udp:192.0.2.1:21324');
    expect(remote.code).toBe(2);
    expect(remote.json.error).toMatchObject({ code: 'INVALID_TREZOR_SETTING' });
    const none = await perps(['withdraw', '--wallet', WALLET, '--amount', '5', '--signer', 'trezor', '--json'], 'udp:127.0.0.1:9');
    expect(none.code).toBe(1);
    expect(none.json.error).toMatchObject({ code: 'TREZOR_NO_DEVICE' });
  });
});
