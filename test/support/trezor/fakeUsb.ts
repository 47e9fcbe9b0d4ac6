/**
 * A fake of the `usb` module's classic API (getDeviceList, open, interface(0), endpoints 0x81/0x01 with
 * 64-byte interrupt transfers), with a FakeTrezor behind it, so src/main/signers/trezor/usbLink.ts runs
 * unchanged. `unplug()` fails pending and later transfers as libusb does for a removed device.
 */
import type { UsbDeviceLike, UsbEndpointLike, UsbInterfaceLike, UsbLib } from '../../../src/main/signers/trezor/usbLink.js';
import type { FakeTrezor } from './fakeTrezor.js';

type Cb = (error: (Error & { errno?: number }) | undefined, data?: Buffer) => void;

export class FakeUsbTrezor implements UsbDeviceLike {
  deviceDescriptor: { idVendor: number; idProduct: number };
  opened = false;
  claimed = false;
  #out: Buffer[] = [];
  #pendingIn: Cb[] = [];
  #unplugged = false;
  /** Host messages to accept before the cable is "pulled" (counted in reports written). */
  unplugAfterReports: number | undefined;
  #reportsIn = 0;

  /** Reports written by the host so far. */
  get reportsIn(): number {
    return this.#reportsIn;
  }

  constructor(
    readonly device: FakeTrezor,
    ids: { idVendor: number; idProduct: number } = { idVendor: 0x1209, idProduct: 0x53c1 },
  ) {
    this.deviceDescriptor = ids;
    device.onReport = (r) => {
      const cb = this.#pendingIn.shift();
      if (cb) cb(undefined, r);
      else this.#out.push(r);
    };
  }

  unplug(): void {
    this.#unplugged = true;
    const err = Object.assign(new Error('LIBUSB_TRANSFER_NO_DEVICE'), { errno: 5 });
    for (const cb of this.#pendingIn.splice(0)) cb(err);
  }

  open(): void {
    if (this.#unplugged) throw Object.assign(new Error('LIBUSB_ERROR_NO_DEVICE'), { errno: -4 });
    this.opened = true;
  }

  close(): void {
    this.opened = false;
  }

  interface(index: number): UsbInterfaceLike {
    if (index !== 0) throw new Error('fake usb: the Trezor has its vendor interface at 0');
    const inEp: UsbEndpointLike = {
      transfer: (length, cb: Cb) => {
        if (length !== 64) return cb(Object.assign(new Error('LIBUSB_ERROR_OVERFLOW'), { errno: -8 }));
        if (this.#unplugged) return cb(Object.assign(new Error('LIBUSB_TRANSFER_NO_DEVICE'), { errno: 5 }));
        const r = this.#out.shift();
        if (r) cb(undefined, r);
        else this.#pendingIn.push(cb);
      },
    };
    const outEp: UsbEndpointLike = {
      transfer: (data, cb: Cb) => {
        if (this.#unplugged) return cb(Object.assign(new Error('LIBUSB_TRANSFER_NO_DEVICE'), { errno: 5 }));
        if (!Buffer.isBuffer(data) || data.length !== 64) return cb(Object.assign(new Error('fake usb: reports are 64 bytes'), { errno: -1 }));
        this.#reportsIn++;
        // The cable goes before the device can act on this report.
        if (this.unplugAfterReports !== undefined && this.#reportsIn >= this.unplugAfterReports) this.unplug();
        else this.device.receiveReport(data);
        cb(undefined);
      },
    };
    return {
      claim: () => {
        this.claimed = true;
      },
      release: (_closeEndpoints, cb) => {
        this.claimed = false;
        const err = Object.assign(new Error('LIBUSB_TRANSFER_CANCELLED'), { errno: 3 });
        for (const p of this.#pendingIn.splice(0)) p(err);
        cb(undefined);
      },
      endpoint: (address) => (address === 0x81 ? inEp : address === 0x01 ? outEp : undefined),
    };
  }
}

export function fakeUsb(...devices: UsbDeviceLike[]): UsbLib {
  return { getDeviceList: () => devices };
}
