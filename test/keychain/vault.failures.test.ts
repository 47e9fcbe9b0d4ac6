/**
 * A missing or locked keychain gives a typed, actionable error and never a plain-text fallback: nothing is
 * written to the settings folder. Each case runs in its own process (and for the locked case its own
 * D-Bus session and keyring), so the rest of the suite keeps its working keychain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { filesUnder, shell, tempDir, testService, vaultInChild } from '../support/keychain.js';

const wallet = Wallet.createRandom().address;

describe('vault when the keychain is missing or locked', () => {
  it('no Secret Service reachable: KEYCHAIN_UNAVAILABLE with set-up advice, nothing stored', async () => {
    const dataDir = tempDir('nokeychain');
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/perps-bus' };
    const r = await vaultInChild(['create', dataDir, testService('none'), 'sim', wallet], env);
    expect(r).toMatchObject({ ok: false, code: 'KEYCHAIN_UNAVAILABLE' });
    expect(r.message).toMatch(/Secret Service/);
    // No key material and no metadata anywhere: there is no plain-text fallback.
    const files = filesUnder(dataDir);
    for (const f of files) expect(fs.readFileSync(f, 'utf8')).not.toMatch(/"agent"/);
  });

  it('locked keychain: KEYCHAIN_LOCKED telling the user to unlock, nothing stored', async () => {
    const dataDir = tempDir('locked');
    const xdg = tempDir('locked-xdg');
    const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
    const fixture = path.join(REPO_ROOT, 'test/fixtures/vaultProcess.ts');
    const service = testService('locked');
    // A private session: create and unlock a keyring, lock its collection over D-Bus, then use the vault.
    const out = await shell(
      `dbus-run-session -- bash -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1;
        node -e "require(\\"keytar\\").setPassword(\\"${service}\\", \\"probe\\", \\"x\\").then(() => 0)";
        gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets --method org.freedesktop.Secret.Service.Lock "[\\"/org/freedesktop/secrets/collection/login\\"]" >/dev/null;
        ${tsx} ${fixture} create ${dataDir} ${service} sim ${wallet}' 2>/dev/null`,
      { ...process.env, XDG_DATA_HOME: xdg },
    );
    const r = JSON.parse(out.trim().split('\n').pop()!) as { ok: boolean; code: string; message: string };
    expect(r).toMatchObject({ ok: false, code: 'KEYCHAIN_LOCKED' });
    expect(r.message).toMatch(/[Uu]nlock/);
    for (const f of filesUnder(dataDir)) expect(fs.readFileSync(f, 'utf8')).not.toMatch(/"agent"/);
  });
});
