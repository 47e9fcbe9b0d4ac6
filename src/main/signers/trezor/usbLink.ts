/**
 * Trezor over USB with the `usb` package (libusb; MIT). Trezors since firmware 1.7 / 2.0 enumerate as
 * 1209:53C1 with a vendor interface 0 and interrupt endpoints 0x81 (in) and 0x01 (out), 64-byte reports
 * (the same ids in bootloader mode are 1209:53C0). The native module is loaded on first use, so a user
 * who never plugs in a Trezor never loads it.
 *
 * Only the few calls of the `usb` module's classic API used here are typed (UsbLib), so a test can stand
 * a fake USB stack in for it and run this code unchanged.
 */
import { createRequire } from 'node:module';
import { TrezorError } from './trezorErrors.js';
import { reportWire, type MessageWire, type ReportLink } from './wire.js';
import { REPORT_SIZE } from './wireV1.js';

export const TREZOR_VENDOR_ID = 0x1209;
export const TREZOR_PRODUCT_ID = 0x53c1;
export const TREZOR_BOOTLOADER_PRODUCT_ID = 0x53c0;
/** The Model One's HID ids of firmware before 1.7: far older than typed-data signing needs. */
export const TREZOR_ONE_HID = { vendorId: 0x534c, productId: 0x0001 } as const;

type Callback<T = void> = (error: (Error & { errno?: number }) | undefined, data?: T) => void;

export interface UsbEndpointLike {
  transfer(lengthOrData: number | Buffer, callback: Callback<Buffer>): unknown;
}

export interface UsbInterfaceLike {
  claim(): void;
  release(closeEndpoints: boolean, callback: Callback): void;
  endpoint(address: number): UsbEndpointLike | undefined;
}

export interface UsbDeviceLike {
  deviceDescriptor: { idVendor: number; idProduct: number };
  open(): void;
  close(): void;
  interface(index: number): UsbInterfaceLike;
}

export interface UsbLib {
  getDeviceList(): UsbDeviceLike[];
}

const requireCjs = createRequire(import.meta.url);
let loaded: UsbLib | undefined;

export function loadUsb(): UsbLib {
  if (!loaded) {
    try {
      loaded = requireCjs('usb') as UsbLib;
    } catch (err) {
      throw new TrezorError('NO_DEVICE', 'USB access is unavailable: the usb native module failed to load.', { cause: err });
    }
  }
  return loaded;
}

/** libusb's "no device" (-4) and the transfer status of an unplugged device (5) mean the same to the user. */
function usbFailure(err: Error & { errno?: number }, what: string): TrezorError {
  if (err.errno === -4 || err.errno === 5 || /NO_DEVICE|no such device/i.test(err.message)) {
    return new TrezorError('DISCONNECTED', `The Trezor was disconnected (${what}).`, { cause: err });
  }
  if (err.errno === -6 || /BUSY/i.test(err.message)) {
    return new TrezorError('DEVICE_BUSY', 'Another program (Trezor Suite?) holds the Trezor.', { cause: err });
  }
  if (err.errno === -3 || /ACCESS/i.test(err.message)) {
    return new TrezorError(
      'NO_DEVICE',
      process.platform === 'linux'
        ? 'The Trezor is plugged in but this user may not open it: install the Trezor udev rules (README, "Hardware wallets"), replug it and try again.'
        : 'The Trezor is plugged in but cannot be opened: close Trezor Suite and try again.',
      { cause: err },
    );
  }
  return new TrezorError('DISCONNECTED', `USB ${what} failed: ${err.message}`, { cause: err });
}

/** Opens the first Trezor on USB as a MessageWire; a device in bootloader mode or with ancient firmware is refused. */
export function openUsbWire(usb: UsbLib = loadUsb()): MessageWire {
  const devices = usb.getDeviceList();
  const device = devices.find((d) => d.deviceDescriptor.idVendor === TREZOR_VENDOR_ID && d.deviceDescriptor.idProduct === TREZOR_PRODUCT_ID);
  if (!device) {
    if (devices.some((d) => d.deviceDescriptor.idVendor === TREZOR_VENDOR_ID && d.deviceDescriptor.idProduct === TREZOR_BOOTLOADER_PRODUCT_ID)) {
      throw new TrezorError('WRONG_STATE', 'The Trezor is in bootloader mode: replug it without touching the screen (or buttons) and try again.');
    }
    if (devices.some((d) => d.deviceDescriptor.idVendor === TREZOR_ONE_HID.vendorId && d.deviceDescriptor.idProduct === TREZOR_ONE_HID.productId)) {
      throw new TrezorError('FIRMWARE_TOO_OLD', 'This Trezor Model One runs firmware older than 1.7: update it with Trezor Suite (typed data needs 1.10.5).');
    }
    throw new TrezorError('NO_DEVICE', 'No Trezor found on USB. Plug it in and unlock it.');
  }
  let iface: UsbInterfaceLike;
  try {
    device.open();
    iface = device.interface(0);
    iface.claim();
  } catch (err) {
    try {
      device.close();
    } catch {
      // Closing a device that failed to open has nothing left to release; the open error is the one to report.
    }
    throw usbFailure(err as Error, 'open');
  }
  const inEp = iface.endpoint(0x81);
  const outEp = iface.endpoint(0x01);
  if (!inEp || !outEp) throw new TrezorError('DEVICE_ERROR', 'The USB device has no Trezor endpoints.');
  let closed = false;
  const link: ReportLink = {
    write: (report) =>
      new Promise<void>((resolve, reject) => {
        if (closed) return reject(new TrezorError('DISCONNECTED', 'The Trezor connection is closed.'));
        outEp.transfer(Buffer.from(report), (err) => (err ? reject(usbFailure(err, 'write')) : resolve()));
      }),
    read: () =>
      new Promise<Uint8Array>((resolve, reject) => {
        if (closed) return reject(new TrezorError('DISCONNECTED', 'The Trezor connection is closed.'));
        inEp.transfer(REPORT_SIZE, (err, data) => {
          if (err) return reject(closed ? new TrezorError('DISCONNECTED', 'The Trezor connection was closed.', { cause: err }) : usbFailure(err, 'read'));
          if (!data || data.length !== REPORT_SIZE) return reject(new TrezorError('DEVICE_ERROR', `The Trezor sent a ${data?.length ?? 0}-byte report.`));
          resolve(new Uint8Array(data));
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        iface.release(true, () => {
          try {
            device.close();
          } finally {
            resolve();
          }
        });
      }),
  };
  return reportWire(link, 'USB');
}
