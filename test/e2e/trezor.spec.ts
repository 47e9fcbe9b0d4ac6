/**
 * Connecting a Trezor as the main wallet, in the page, against the real handlers and the
 * firmware-faithful fake device behind a fake USB stack: the locked Model One's blank PIN matrix
 * (positions clicked and typed on the keypad, backspace), "Confirm on your Trezor" with what the device
 * shows and a Cancel that reaches the device, the rejected-on-device screen, then a confirmed connect.
 * Screenshots at 1440x900 and 1024x680.
 */
import type { Page } from '@playwright/test';
import { FakeTrezor, type Decision } from '../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor } from '../support/trezor/fakeUsb.js';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const PIN = '2589';
const PATH = "m/44'/60'/0'/0/0";

/** The same view at the large and the small window size, the large one last (it stays). */
async function bothSizes(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1024, height: 680 });
  await screenshot(page, `${name}-1024`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, name);
}

test('Trezor Model One: PIN matrix, confirm on the device, cancel and reject, then connected', async ({ page, server, pageErrors }) => {
  let decision: Decision = 'wait';
  const device = new FakeTrezor({ model: 'T1B1', version: [1, 12, 1], pin: PIN, decide: (s) => (s.name === 'show_address' ? decision : 'confirm') });
  const usb = new FakeUsbTrezor(device);
  app = await openApp(page, server, 'trezor', { core: { env: { PERPS_TREZOR_TRANSPORT: 'usb' }, trezor: { usb: { getDeviceList: () => [usb] } } } });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your main wallet' })).toBeVisible();
  await page.getByRole('radio', { name: 'Trezor' }).click();
  await page.getByRole('button', { name: 'Connect Trezor' }).click();

  // The PIN: a blank matrix; the device alone shows where each digit is.
  const pin = page.getByRole('dialog', { name: 'Enter the PIN of your Trezor Model One' });
  await expect(pin).toBeVisible();
  const matrix = pin.getByRole('group', { name: 'PIN matrix' });
  await expect(matrix.getByRole('button')).toHaveCount(9);
  await expect(matrix.getByRole('button').first()).toHaveAccessibleName('Position 7');
  await expect(matrix).not.toContainText(/[0-9]/);
  const positions = [...PIN].map((d) => String(device.shownMatrix!.indexOf(d) + 1));
  // The first two by clicking, a wrong one undone with backspace, the rest on the keypad.
  await matrix.getByRole('button', { name: `Position ${positions[0]}` }).click();
  await matrix.getByRole('button', { name: `Position ${positions[1]}` }).click();
  await page.keyboard.press('9');
  await expect(pin.getByRole('status').or(pin.getByLabel('Positions entered'))).toHaveText('●●●');
  await pin.getByRole('button', { name: 'Delete the last position' }).click();
  await page.keyboard.press(positions[2]!);
  await page.keyboard.press(positions[3]!);
  await expect(pin.getByLabel('Positions entered')).toHaveText('●●●●');
  await bothSizes(page, 'trezor-pin');
  await page.keyboard.press('Enter');

  // The device shows the address and waits: the app says so, and Cancel stops the device.
  const confirm = page.getByRole('dialog', { name: 'Confirm on your Trezor' });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('Trezor Model One');
  await expect(confirm).toContainText('shows the wallet address of this path');
  await bothSizes(page, 'trezor-confirm');
  await confirm.getByRole('button', { name: 'Cancel on Trezor' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('alert')).toContainText('Cancelled — your Trezor was told to stop');
  expect(device.received).toContain('Cancel');

  // Rejected on the device: its own screen.
  decision = 'reject';
  await page.getByRole('button', { name: 'Connect Trezor' }).click();
  await expect(page.getByRole('alert')).toContainText('Rejected on your Trezor');
  await expect(page.getByRole('alert')).toContainText('TREZOR_REJECTED_ON_DEVICE');
  await bothSizes(page, 'trezor-rejected');

  // Confirmed: the wallet is the device's address, and onboarding goes on to the trading key.
  decision = 'confirm';
  await page.getByRole('button', { name: 'Connect Trezor' }).click();
  await expect(page.getByRole('heading', { name: 'Create a trading key' })).toBeVisible();
  expect((await app.core.desks.wallet.view()).signer).toMatchObject({ kind: 'trezor', path: PATH });

  // The Model One signs the authorization by its two hashes: the app shows both first, in the Ledger's
  // blind-signing dialog, worded for the Trezor; then the device shows them and the key is authorized.
  await page.getByRole('button', { name: 'Create trading key' }).click();
  await page.getByRole('button', { name: 'Sign and authorize' }).click();
  const hashes = page.getByRole('dialog', { name: 'Signing by hashes on your Trezor' });
  await expect(hashes).toBeVisible();
  await expect(hashes).toContainText('Trezor Model One cannot display this AuthorizeAgent');
  await expect(hashes).toContainText(/Domain hash\s*0x[0-9a-f]{64}/);
  await bothSizes(page, 'trezor-hashes');
  await hashes.getByRole('button', { name: 'Hashes match — sign on device' }).click();
  await expect(page.getByRole('heading', { name: 'Fund your account' })).toBeVisible({ timeout: 10_000 });
  expect(device.screens.map((s) => s.name)).toEqual(expect.arrayContaining(['confirm_domain_hash', 'confirm_message_hash']));
  expect(pageErrors).toEqual([]);
});
