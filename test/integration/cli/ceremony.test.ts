/**
 * The command-line key ceremony and an offline-signed withdrawal, end to end: the real `perps` program
 * (bin/perps.js in child processes) with TWO data folders standing for two machines.
 *
 *  - online: talks to a simulator over loopback HTTP; holds the trading key in the real OS keychain
 *    (a test-only service name, wiped with keytar afterwards);
 *  - offline: holds the main wallet (a keystore, or the test playing an air-gapped device behind
 *    `--signer offline`) and is pointed at a tripwire: a port that counts every connection and answers
 *    none, so a run that reached for the network would fail AND be counted. It must stay at zero.
 *
 * Failure cases prove "nothing was sent" from the service's own withdrawal history and key listing, not
 * from the command's word.
 *
 * Where each run happens (issue 37): a run the test answers on stdin (`--signer offline`, the device's
 * signature typed back) is a child, as a person at a terminal sees it; so is the tampered withdrawal's
 * refusal, the file's child for exit 2 (the offline signer's children cover 0 and 1). Every other run
 * (keys new/authorize/submit/list, dry runs, submits, history) is `perps` in this process
 * (perpsInProcess.ts), with the same two data folders, keychain services and variables, set for the run
 * and restored after it; the tripwire counts this process's connections just as a child's.
 *
 * No test relies on another having run: the withdrawal tests share a signed file, but each first ensures
 * the state it starts from, read back from where it lives (a signed file on the stick; the online data
 * folder's record of it, which is how `withdraw submit` knows a file it sent; the service's balance), and
 * builds only what is missing (a file signed offline with the keystore, a deposit, a submit). "Nothing was
 * sent" is the service's history unchanged over the test. In file order the ensures find it in place.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { TypedDataEncoder, Wallet, encryptKeystoreJsonSync, type TypedDataField } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WithdrawalStore, type TrackedWithdrawal } from '../../../src/main/services/money/withdrawalStore.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { REPO_ROOT } from '../../support/paths.js';
import { jsonOf } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { rawKeytar, tempDir, testService, wipeService } from '../../support/keychain.js';
import { SimHarness } from '../support/keysMoney.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> & { error?: Record<string, unknown> };
}

/** A running `perps`: its stdin stays open for the test to answer a signing request. */
interface Started {
  stdin: NodeJS.WritableStream;
  done: Promise<Run>;
}

const SLOW = { timeout: 180_000 };
const PASSWORD = 'ceremony-pw';

let h: SimHarness;
let tripwire: net.Server;
let tripwireHits = 0;
let tripwireUrl: string;
const onlineService = testService('cli-ceremony-online');
const offlineService = testService('cli-ceremony-offline');
const onlineDir = tempDir('ceremony-online');
const offlineDir = tempDir('ceremony-offline');
const carry = tempDir('ceremony-usb-stick');
const main = Wallet.createRandom();
const stranger = Wallet.createRandom();
const keystore = path.join(offlineDir, 'main-wallet.json');

beforeAll(async () => {
  // The password is given only where a test means to, in this process's runs as in a child's.
  delete process.env['PERPS_KEYSTORE_PASSWORD'];
  h = await SimHarness.boot();
  tripwire = net.createServer((socket) => {
    tripwireHits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tripwire.listen(0, '127.0.0.1', resolve));
  tripwireUrl = `http://127.0.0.1:${(tripwire.address() as net.AddressInfo).port}`;
  // A cheap scrypt setting keeps the test fast; the format is the one geth and Foundry write.
  fs.writeFileSync(keystore, encryptKeystoreJsonSync({ address: main.address, privateKey: main.privateKey }, PASSWORD, { scrypt: { N: 1 << 10 } }));
});

afterAll(async () => {
  await wipeService(onlineService);
  await wipeService(offlineService);
  await new Promise<void>((resolve) => tripwire.close(() => resolve()));
  await h.stop();
});

function onlineEnv(dataDir = onlineDir): Record<string, string> {
  return {
    PERPS_BASE_URL: h.urls.base_url,
    PERPS_VENUE_URL: h.urls.venue_info_url,
    PERPS_DATA_DIR: dataDir,
    PERPS_KEYCHAIN_SERVICE: onlineService,
  };
}

function offlineEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PERPS_BASE_URL: `${tripwireUrl}/api/v1`,
    PERPS_VENUE_URL: `${tripwireUrl}/venue/info`,
    PERPS_DATA_DIR: offlineDir,
    PERPS_KEYCHAIN_SERVICE: offlineService,
    ...extra,
  };
}

/** A child's whole environment: this process's, with `vars` over it; the password only where a test gives it. */
function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['PERPS_KEYSTORE_PASSWORD'];
  return { ...env, ...vars };
}

function start(args: string[], vars: Record<string, string>): Started {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), ...args], { env: childEnv(vars), cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const run = { code: code ?? -1, stdout, stderr };
      try {
        resolve({ ...run, json: args.includes('--json') ? jsonOf(run) : {} });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
  return { stdin: child.stdin, done };
}

/**
 * Runs to the end with nothing to answer: in this process, or with `child` a real bin/perps.js with stdin
 * closed. In this process the password variable is unset (beforeAll) and only a run's own vars set it.
 */
async function perps(args: string[], vars: Record<string, string>, o: { child?: boolean } = {}): Promise<Run> {
  if (o.child) {
    const run = start(args, vars);
    run.stdin.end();
    return run.done;
  }
  const r = await perpsInProcess(args, vars);
  return { ...r, json: args.includes('--json') ? jsonOf(r) : {} };
}

async function waitForFile(file: string, run: Started): Promise<string> {
  const deadline = Date.now() + 60_000;
  let exited: Run | undefined;
  void run.done.then((r) => (exited = r));
  for (;;) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    if (exited) throw new Error(`perps exited (${exited.code}) before writing ${file}:\n${exited.stdout}\n${exited.stderr}`);
    if (Date.now() > deadline) throw new Error(`no ${file} within 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface RequestFile {
  domain: Record<string, unknown>;
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
  format: string;
  summary: { primaryType: string; wallet: string; amountUsdc?: string; digest: string; lines: string[] };
}

/** The test as the air-gapped device: signs the typed data of the request file as any wallet would. */
function signRequest(wallet: Pick<Wallet, 'signTypedData'>, request: RequestFile): Promise<string> {
  const types = Object.fromEntries(Object.entries(request.types).filter(([k]) => k !== 'EIP712Domain'));
  return wallet.signTypedData(request.domain, types, request.message);
}

async function history(): Promise<{ withdrawal_id: string; amount: string; status: string }[]> {
  const r = await perps(['history', 'withdrawals', '--wallet', main.address, '--json'], onlineEnv());
  expect(r.code, r.stderr).toBe(0);
  return r.json['withdrawals'] as { withdrawal_id: string; amount: string; status: string }[];
}

describe('key ceremony (offline main wallet)', SLOW, () => {
  it('keys new online, authorize --out offline with no network, submit online, listed ACTIVE', async () => {
    const created = await perps(['keys', 'new', '--wallet', main.address, '--name', 'desk', '--json'], onlineEnv());
    expect(created.code, created.stderr).toBe(0);
    const agent = created.json['agent'] as string;
    expect(agent).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // The private key went into the keychain of the online machine, under this test's service only.
    expect((await rawKeytar.findCredentials(onlineService)).length).toBe(1);

    const register = path.join(carry, 'register.json');
    const signed = await perps(
      ['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', `keystore:${keystore}`, '--expires-in', '30d', '--out', register, '--json'],
      offlineEnv({ PERPS_KEYSTORE_PASSWORD: PASSWORD }),
    );
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.json).toMatchObject({ out: register, wallet: main.address, agent, service_environment: 'Testnet', submitted: false });
    expect(tripwireHits).toBe(0);
    expect(fs.statSync(register).mode & 0o777).toBe(0o600);
    // The offline machine's keychain was never written to.
    expect(await rawKeytar.findCredentials(offlineService)).toEqual([]);

    // A body changed on the way (a longer expiry) is refused before it is sent.
    const body = JSON.parse(fs.readFileSync(register, 'utf8')) as Record<string, unknown>;
    const tampered = path.join(carry, 'register-tampered.json');
    fs.writeFileSync(tampered, JSON.stringify({ ...body, expires_at: (body['expires_at'] as number) + 86_400_000 }));
    const refused = await perps(['keys', 'submit', tampered, '--json'], onlineEnv());
    expect(refused.code).toBe(2);
    expect(refused.json.error).toMatchObject({ code: 'SIGNATURE_MISMATCH', exit_code: 2 });
    const before = await perps(['keys', 'list', '--wallet', main.address, '--json'], onlineEnv());
    expect(before.json['keys']).toEqual([expect.objectContaining({ agent, status: 'NOT_AUTHORIZED', listed: false })]);

    const submitted = await perps(['keys', 'submit', register, '--json'], onlineEnv());
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.json).toMatchObject({ agent, wallet: main.address, stored_locally: true, already_registered: false, expires_at: body['expires_at'] });

    const list = await perps(['keys', 'list', '--wallet', main.address, '--json'], onlineEnv());
    expect(list.code).toBe(0);
    expect(list.json['keys']).toEqual([expect.objectContaining({ agent, name: 'desk', status: 'ACTIVE', listed: true, stored_locally: true })]);
  });

  it('--dry-run of the offline half prints what would be signed, with the foreign-key warning: no network, no signer, no file', async () => {
    const agent = Wallet.createRandom().address;
    const register = path.join(carry, 'register-dry-run.json');
    const keys = await perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--out', register, '--dry-run', '--json'], offlineEnv());
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.json).toMatchObject({ dry_run: true, action: 'authorize', signer: { role: 'main-wallet', address: main.address }, view: { agent, stored_locally: false, clock: 'local', environment: 'Testnet' } });
    expect((keys.json['view'] as { warnings: string[] }).warnings.join('\n')).toMatch(/hands trading rights .* to a key this machine does not hold/);
    const [request] = keys.json['requests'] as { digest: string; typed_data: RequestFile }[];
    expect(request!.typed_data.primaryType).toBe('AuthorizeAgent');
    const types = Object.fromEntries(Object.entries(request!.typed_data.types).filter(([k]) => k !== 'EIP712Domain'));
    expect(request!.digest).toBe(TypedDataEncoder.hash(request!.typed_data.domain, types, request!.typed_data.message));

    const withdrawal = path.join(carry, 'withdrawal-dry-run.json');
    const money = await perps(['withdraw', '--wallet', main.address, '--amount', '7', '--out', withdrawal, '--dry-run', '--json'], offlineEnv());
    expect(money.code, money.stderr).toBe(0);
    expect(money.json).toMatchObject({ dry_run: true, action: 'withdraw', view: { amount: '7', checked: false, free_balance: null } });

    expect(fs.existsSync(register)).toBe(false);
    expect(fs.existsSync(withdrawal)).toBe(false);
    expect(tripwireHits).toBe(0);
    expect(await rawKeytar.findCredentials(offlineService)).toEqual([]);
  });
});

describe('offline-signed withdrawal', SLOW, () => {
  /** The shared signed withdrawal of 25 on the stick ('' until one is signed). */
  let signedFile = '';
  /** Every name given to a signed withdrawal on the stick, oldest first. */
  const signedFiles: string[] = [];

  /** A new name on the stick for a signed withdrawal. */
  function nextSignedFile(): string {
    const file = path.join(carry, signedFiles.length === 0 ? 'withdrawal.json' : `withdrawal-${signedFiles.length + 1}.json`);
    signedFiles.push(file);
    return file;
  }

  /** `main`'s free balance online is at least `min`: a deposit of 100 when short. */
  async function ensureFunded(min: string): Promise<void> {
    const r = await perps(['balance', '--wallet', main.address, '--json'], onlineEnv());
    expect(r.code, r.stderr).toBe(0);
    if (new Decimal(r.json['free_balance'] as string).lt(min)) await h.fund(main.address, '100');
  }

  /** The online data folder's record of a signed file, found by its nonce as `withdraw submit` finds it (the app's own store): none until it is submitted from there. */
  function onlineRecordOf(file: string): TrackedWithdrawal | undefined {
    const nonce = (JSON.parse(fs.readFileSync(file, 'utf8')) as { body: { nonce: string } }).body.nonce;
    return new WithdrawalStore(openNodeSettings(onlineDir), 'sim').list().find((r) => r.nonce === nonce);
  }

  /** A withdrawal of 25 signed on the offline machine (its keystore, no network), on the stick as the shared file. */
  async function signWithKeystore(): Promise<string> {
    const out = nextSignedFile();
    const r = await perps(
      ['withdraw', '--wallet', main.address, '--amount', '25', '--out', out, '--signer', `keystore:${keystore}`, '--json'],
      offlineEnv({ PERPS_KEYSTORE_PASSWORD: PASSWORD }),
    );
    expect(r.code, r.stderr).toBe(0);
    signedFile = out;
    return out;
  }

  /** The shared signed file: signed when there is none. */
  async function ensureSignedFile(): Promise<string> {
    return signedFile !== '' && fs.existsSync(signedFile) ? signedFile : signWithKeystore();
  }

  /** A signed file the online machine has not submitted: the shared one, or a new one when it was. */
  async function ensureUnsubmittedFile(): Promise<string> {
    const file = await ensureSignedFile();
    return onlineRecordOf(file) === undefined ? file : signWithKeystore();
  }

  /**
   * A signed file submitted online and COMPLETED, and its withdrawal id: any such file on the stick, else
   * one submitted (and waited for) now. Never a second withdrawal of 25 beside one already made: a data
   * folder that did not send the file finds its landed withdrawal as the oldest of that amount since the
   * signing (reconcile.ts), and two of them would be indistinguishable.
   */
  async function ensureCompletedFile(): Promise<{ file: string; withdrawalId: string }> {
    for (const file of signedFiles.filter((f) => fs.existsSync(f))) {
      const record = onlineRecordOf(file);
      if (record?.status === 'COMPLETED' && record.withdrawal_id) return { file, withdrawalId: record.withdrawal_id };
    }
    const file = await ensureUnsubmittedFile();
    await ensureFunded('25');
    const r = await h.advanceDuring(perps(['withdraw', 'submit', file, '--wait', '--json'], onlineEnv()), 500, 50);
    expect(r.code, r.stderr).toBe(0);
    return { file, withdrawalId: (r.json['withdrawal'] as { withdrawal_id: string }).withdrawal_id };
  }

  it('signs on the offline machine through --signer offline (request file + QR page), with no network', async () => {
    const historyBefore = await history();
    const requestFile = path.join(carry, 'withdraw-request.json');
    const page = path.join(carry, 'withdraw-qr.html');
    const out = nextSignedFile();
    const run = start(
      [
        'withdraw', '--wallet', main.address, '--amount', '25', '--out', out,
        '--signer', 'offline', '--request-out', requestFile, '--qr', page, '--qr-fingerprint', '0a1b2c3d', '--json',
      ],
      offlineEnv(),
    );
    const request = JSON.parse(await waitForFile(requestFile, run)) as RequestFile;
    // What the device is asked to sign, and what the person is told it is.
    expect(request.format).toBe('perps-desk/typed-data-request@1');
    expect(request.primaryType).toBe('Withdraw');
    expect(request.message).toMatchObject({ user: main.address, destination: main.address, amount: '25000000', serviceEnvironment: 'Testnet' });
    expect(request.domain).toMatchObject({ name: 'Service Perps', version: '2', chainId: 998 });
    expect(request.summary).toMatchObject({ primaryType: 'Withdraw', wallet: main.address, amountUsdc: '25' });
    const html = fs.readFileSync(page, 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|\bsrc=|\bhref=/i);
    expect(html).toContain("default-src 'none'");

    run.stdin.write((await signRequest(main, request)) + '\n');
    run.stdin.end();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ out, wallet: main.address, amount: '25', submitted: false });
    expect(tripwireHits).toBe(0);
    signedFile = out;
    const file = JSON.parse(fs.readFileSync(signedFile, 'utf8')) as { format: string; body: { amount: string; signature: { v: number } } };
    expect(file).toMatchObject({ format: 'perps-desk/signed-withdrawal@1', body: { amount: '25' } });
    expect([27, 28]).toContain(file.body.signature.v);
    // Signing sent nothing.
    expect(await history()).toEqual(historyBefore);
  });

  it('submits online and waits to COMPLETED', async () => {
    const file = await ensureUnsubmittedFile();
    await ensureFunded('25');
    const before = await history();
    const r = await h.advanceDuring(perps(['withdraw', 'submit', file, '--wait', '--json'], onlineEnv()), 500, 50);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ already_submitted: false, withdrawal: { amount: '25', status: 'COMPLETED', phase: 'DONE', wallet: main.address } });
    const withdrawalId = (r.json['withdrawal'] as { withdrawal_id: string }).withdrawal_id;
    // Exactly one new withdrawal (newest first), over any made before this test.
    expect(await history()).toEqual([expect.objectContaining({ withdrawal_id: withdrawalId, amount: '25', status: 'COMPLETED' }), ...before]);
  });

  it('the same file submitted again never makes a second withdrawal', async () => {
    const { file: submittedFile, withdrawalId } = await ensureCompletedFile();
    const before = await history();
    // Same data folder: its record is found by nonce and reported.
    const again = await perps(['withdraw', 'submit', submittedFile, '--json'], onlineEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ already_submitted: true, withdrawal: { withdrawal_id: withdrawalId, status: 'COMPLETED' } });
    // Another data folder: the service answers 409 (nonce used), so it landed; it is found in history.
    const elsewhere = await perps(['withdraw', 'submit', submittedFile, '--json'], onlineEnv(tempDir('ceremony-third')));
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.json).toMatchObject({ already_submitted: false, withdrawal: { withdrawal_id: withdrawalId, status: 'COMPLETED' } });
    const after = await history();
    expect(after).toHaveLength(before.length);
    expect(after.filter((w) => w.withdrawal_id === withdrawalId)).toHaveLength(1);
  });

  it('a signature from the wrong key is refused before anything is sent', async () => {
    // Online, the amount is checked against the free balance before the device is asked.
    await ensureFunded('5');
    const before = await history();
    // Online, sign-and-submit in one go with the offline signer: the stranger's answer never leaves.
    const requestFile = path.join(carry, 'wrong-request.json');
    const run = start(['withdraw', '--wallet', main.address, '--amount', '5', '--signer', 'offline', '--request-out', requestFile, '--json'], onlineEnv());
    const request = JSON.parse(await waitForFile(requestFile, run)) as RequestFile;
    run.stdin.write((await signRequest(stranger, request)) + '\n');
    run.stdin.end();
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'SIGNATURE_MISMATCH', exit_code: 1 });
    expect(String(r.json.error?.['message'])).toMatch(/nothing was sent/);

    // Offline, sign only: no file is written.
    const out = path.join(carry, 'wrong-withdrawal.json');
    const offlineRequest = path.join(carry, 'wrong-offline-request.json');
    const offline = start(['withdraw', '--wallet', main.address, '--amount', '5', '--out', out, '--signer', 'offline', '--request-out', offlineRequest, '--json'], offlineEnv());
    const req2 = JSON.parse(await waitForFile(offlineRequest, offline)) as RequestFile;
    offline.stdin.write((await signRequest(stranger, req2)) + '\n');
    offline.stdin.end();
    const r2 = await offline.done;
    expect(r2.code).toBe(1);
    expect(r2.json.error).toMatchObject({ code: 'SIGNATURE_MISMATCH' });
    expect(fs.existsSync(out)).toBe(false);
    expect(tripwireHits).toBe(0);

    expect(await history()).toEqual(before);
    const open = await perps(['withdraw', '--wallet', main.address, '--resume', '--json'], onlineEnv());
    expect(open.json).toEqual({ withdrawals: [], damaged: [] });
  });

  it('a signed withdrawal changed on the way is refused before it is sent', async () => {
    const before = await history();
    const file = JSON.parse(fs.readFileSync(await ensureSignedFile(), 'utf8')) as { amount: string; body: Record<string, unknown> };
    const tampered = path.join(carry, 'withdrawal-tampered.json');
    fs.writeFileSync(tampered, JSON.stringify({ ...file, amount: '50', body: { ...file.body, amount: '50', nonce: String(Number(file.body['nonce']) + 1) } }));
    const r = await perps(['withdraw', 'submit', tampered, '--json'], onlineEnv(), { child: true });
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: 'SIGNATURE_MISMATCH', exit_code: 2 });
    expect(await history()).toEqual(before);
  });
});
