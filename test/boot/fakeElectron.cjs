/* eslint-disable @typescript-eslint/no-require-imports -- Electron's module is CommonJS, and so is this stand-in: `require('electron')` must work too */
/**
 * A stand-in for the `electron` module, for the boot test of the built main process
 * (test/boot/mainBundle.test.ts). It is placed as node_modules/electron in a temporary copy of the app,
 * so the bundle's `import ... from 'electron'` and any `require('electron')` both get it.
 *
 * It keeps Electron's rules and throws (and records in `boot.violations`) when the app breaks one, so
 * a regression fails the test instead of passing silently. Sources: Electron 45's API documentation
 * (node_modules/electron/electron.d.ts and the docs site):
 *   - protocol.registerSchemesAsPrivileged: "can only be used before the ready event of the app module
 *     gets emitted and can be called only once";
 *   - protocol.handle, BrowserWindow, screen, session.defaultSession, dialog, Notification, net: only
 *     once the app is ready; one protocol handler per scheme;
 *   - ipcMain.handle: one handler per channel ("Attempted to register a second handler for '...'");
 *   - IPC arguments and results cross by structured clone; invoking a channel nobody handles rejects;
 *   - a sandboxed preload's require knows only 'electron', whose renderer side is contextBridge and
 *     ipcRenderer (here); contextBridge copies what it exposes and proxies functions;
 *   - app.quit(): before-quit (preventable), every window closed, will-quit, quit; no
 *     window-all-closed on that path;
 *   - Tray: only once ready, with a non-empty NativeImage or an image path; a destroyed tray is not used;
 *     Linux's app indicator shows it only with a context menu (Menu.buildFromTemplate; a disabled item
 *     cannot be chosen); dialog.showMessageBox([window, ]options) answers the index of a button (here:
 *     the test's scripted answer), never over a destroyed window.
 *
 * `boot` (not part of Electron's API) is the test's handle: it makes the app ready, waits for windows,
 * runs preloads for frames, and reports what happened.
 */
const { EventEmitter } = require('node:events');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { fileURLToPath } = require('node:url');

const violations = [];
class ElectronRuleError extends Error {}
let violationReject;
/** Rejects at the first broken rule, so the test stops waiting for a window that will never come. */
const violated = new Promise((_resolve, reject) => (violationReject = reject));
violated.catch(() => undefined);

/** Records the broken rule and throws it at the caller, as Electron itself would. */
function violate(message) {
  violations.push(message);
  const error = new ElectronRuleError(`[fake electron] ${message}`);
  violationReject(error);
  throw error;
}

let ready = false;
let readyResolve;
const readyPromise = new Promise((resolve) => (readyResolve = resolve));

function requireReady(what) {
  if (!ready) violate(`${what} used before the app is ready`);
}

function makeEvent(extra = {}) {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    ...extra,
  };
  return event;
}

/** Structured clone, with the message Electron gives when a value cannot cross. */
function cross(value, what) {
  try {
    return structuredClone(value);
  } catch (err) {
    throw new Error(`${what}: An object could not be cloned (${err.message})`);
  }
}

// ---- app ------------------------------------------------------------------------------------------

const PATH_NAMES = new Set(['home', 'appData', 'userData', 'sessionData', 'temp', 'logs', 'crashDumps', 'documents', 'downloads', 'desktop']);
let quitPhase = 'running'; // running | quitting | quit
let quitResolve;
const quitPromise = new Promise((resolve) => (quitResolve = resolve));

const app = new EventEmitter();
Object.assign(app, {
  name: 'perps-desk',
  // A packaged app (Electron: running from app.asar) or a checkout (npm start / npm run dev): the test says which.
  isPackaged: process.env.PERPS_BOOT_PACKAGED === '1',
  // Chromium's parse of the process's command line: "--name" or "--name=value".
  commandLine: {
    hasSwitch: (name) => process.argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`)),
    getSwitchValue: (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '',
  },
  getName: () => app.name,
  getVersion: () => process.env.PERPS_BOOT_APP_VERSION ?? '0.0.0',
  isReady: () => ready,
  whenReady: () => readyPromise,
  requestSingleInstanceLock: () => true,
  releaseSingleInstanceLock: () => undefined,
  getPath(name) {
    if (!PATH_NAMES.has(name)) throw new Error(`Failed to get '${name}' path`);
    const userData = process.env.PERPS_BOOT_USER_DATA;
    if (!userData) throw new Error('PERPS_BOOT_USER_DATA is not set');
    if (name === 'userData' || name === 'sessionData') return userData;
    return path.join(path.dirname(userData), `electron-${name}`);
  },
  quit() {
    if (quitPhase !== 'running') return;
    const before = makeEvent();
    app.emit('before-quit', before);
    if (before.defaultPrevented) return;
    quitPhase = 'quitting';
    for (const win of [...windows]) {
      win.close();
      if (!win.isDestroyed()) {
        quitPhase = 'running'; // a window refused to close: Electron cancels the quit
        return;
      }
    }
    const willQuit = makeEvent();
    app.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) {
      quitPhase = 'running';
      return;
    }
    quitPhase = 'quit';
    app.emit('quit', makeEvent(), 0);
    quitResolve();
  },
  exit(code = 0) {
    violate(`app.exit(${code}) ends the process without saving state; the app should quit`);
  },
});

// ---- protocol, net --------------------------------------------------------------------------------

const privilegedSchemes = [];
let privilegesRegistered = false;
const protocolHandlers = new Map();

const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (ready) violate('protocol.registerSchemesAsPrivileged called after ready');
    if (privilegesRegistered) violate('protocol.registerSchemesAsPrivileged called twice');
    privilegesRegistered = true;
    privilegedSchemes.push(...cross(schemes, 'registerSchemesAsPrivileged'));
  },
  handle(scheme, handler) {
    requireReady('protocol.handle');
    if (protocolHandlers.has(scheme)) violate(`a second protocol handler for '${scheme}'`);
    if (typeof handler !== 'function') violate('protocol.handle needs a function');
    protocolHandlers.set(scheme, handler);
  },
  isProtocolHandled: (scheme) => protocolHandlers.has(scheme),
};

/** What the browser does with a URL of a handled scheme: ask its handler. */
async function fetchThroughProtocol(url) {
  const scheme = new URL(url).protocol.slice(0, -1);
  const handler = protocolHandlers.get(scheme);
  if (!handler) throw new Error(`no protocol handler for ${scheme}:`);
  const response = await handler(new Request(url));
  if (!(response instanceof Response)) violate(`the ${scheme}: handler answered something that is not a Response`);
  return response;
}

const net = {
  /** Main may read its own files through net; the fake refuses the network (the app needs none there). */
  async fetch(input) {
    requireReady('net.fetch');
    const url = typeof input === 'string' ? input : input.url;
    if (url.startsWith('file:')) {
      const file = fileURLToPath(url);
      return new Response(fs.readFileSync(file), { status: 200 });
    }
    if (protocolHandlers.has(new URL(url).protocol.slice(0, -1))) return fetchThroughProtocol(url);
    violate(`net.fetch of ${url}: the main process fetched something other than its own files`);
    return undefined;
  },
};

// ---- ipcMain ---------------------------------------------------------------------------------------

const ipcHandlers = new Map();
const ipcMain = new EventEmitter();
Object.assign(ipcMain, {
  handle(channel, listener) {
    if (ipcHandlers.has(channel)) violate(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, listener);
  },
  handleOnce(channel, listener) {
    ipcMain.handle(channel, async (...args) => {
      ipcHandlers.delete(channel);
      return listener(...args);
    });
  },
  removeHandler(channel) {
    ipcHandlers.delete(channel);
  },
});

// ---- session, screen, dialog, Notification, shell -------------------------------------------------

const permissionHandlers = { request: null, check: null };
const defaultSession = {
  setPermissionRequestHandler(handler) {
    permissionHandlers.request = handler;
  },
  setPermissionCheckHandler(handler) {
    permissionHandlers.check = handler;
  },
};
const session = {
  get defaultSession() {
    requireReady('session.defaultSession');
    return defaultSession;
  },
};

const WORK_AREA = { x: 0, y: 0, width: 1920, height: 1080 };
const screen = {
  getAllDisplays() {
    requireReady('screen');
    return [{ id: 1, bounds: WORK_AREA, workArea: WORK_AREA, scaleFactor: 1 }];
  },
  getPrimaryDisplay() {
    requireReady('screen');
    return { id: 1, bounds: WORK_AREA, workArea: WORK_AREA, scaleFactor: 1 };
  },
};

/** Message boxes shown, with the answer given; answers come from the test's script (boot.answerMessageBoxes). */
const messageBoxes = [];
const messageBoxAnswers = [];
const messageBoxWaiters = [];

const dialog = {
  async showOpenDialog() {
    requireReady('dialog');
    return { canceled: true, filePaths: [] };
  },
  async showSaveDialog() {
    requireReady('dialog');
    return { canceled: true };
  },
  /** dialog.showMessageBox([window, ]options): resolves { response, checkboxChecked } once the test has an answer for it. */
  async showMessageBox(windowOrOptions, maybeOptions) {
    requireReady('dialog');
    const parent = windowOrOptions instanceof BrowserWindow ? windowOrOptions : null;
    const options = parent ? maybeOptions : windowOrOptions;
    if (parent && parent.isDestroyed()) violate('dialog.showMessageBox over a destroyed window');
    if (!options || typeof options.message !== 'string') violate('dialog.showMessageBox needs options with a message');
    const buttons = options.buttons ?? ['OK'];
    const shown = { options: cross(options, 'showMessageBox options'), parent: parent ? { id: parent.id, visible: parent.isVisible() } : null, response: null };
    messageBoxes.push(shown);
    messageBoxWaiters.splice(0).forEach((resolve) => resolve(shown));
    const response = messageBoxAnswers.length > 0 ? messageBoxAnswers.shift() : await new Promise((resolve) => pendingAnswers.push(resolve));
    if (!Number.isInteger(response) || response < 0 || response >= buttons.length) violate(`message box answered ${response}, which is not one of its ${buttons.length} buttons`);
    shown.response = response;
    return { response, checkboxChecked: false };
  },
};
/** Message boxes waiting for an answer the test has not scripted yet. */
const pendingAnswers = [];

/** Native notifications the app showed (title, body). */
const notificationsShown = [];

class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    requireReady('Notification');
    this.options = options;
  }
  show() {
    notificationsShown.push({ title: this.options?.title, body: this.options?.body });
  }
}

// ---- nativeImage, Menu, Tray ----------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

class NativeImage {
  constructor(width, height, scaleFactor) {
    this.size = { width, height };
    this.scaleFactor = scaleFactor;
  }
  isEmpty() {
    return this.size.width === 0 || this.size.height === 0;
  }
  getSize() {
    return { ...this.size };
  }
}

const nativeImage = {
  createEmpty: () => new NativeImage(0, 0, 1),
  /** Decodes the PNG header only (what the tests need): the size in points is the pixels over the scale factor. */
  createFromBuffer(buffer, options = {}) {
    if (!Buffer.isBuffer(buffer) || buffer.length < 24 || !buffer.subarray(0, 8).equals(PNG_SIGNATURE)) return new NativeImage(0, 0, 1);
    const scale = options.scaleFactor ?? 1;
    return new NativeImage(buffer.readUInt32BE(16) / scale, buffer.readUInt32BE(20) / scale, scale);
  },
};

const MENU_ITEM_TYPES = new Set(['normal', 'separator', 'submenu', 'checkbox', 'radio']);

class MenuItem {
  constructor(options, menu) {
    const type = options.type ?? 'normal';
    if (!MENU_ITEM_TYPES.has(type)) violate(`a menu item of unknown type '${type}'`);
    if (type !== 'separator' && typeof options.label !== 'string' && !options.role) violate('a menu item without a label or a role');
    if (options.click !== undefined && typeof options.click !== 'function') violate('a menu item whose click is not a function');
    this.id = options.id;
    this.type = type;
    this.label = options.label ?? '';
    this.enabled = options.enabled ?? true;
    this.visible = options.visible ?? true;
    this.menu = menu;
    this.clickHandler = options.click;
  }
  /** What Electron does on a choice: disabled items cannot be chosen. */
  click() {
    if (!this.enabled || this.type === 'separator') violate(`clicked the menu item '${this.label}', which cannot be chosen`);
    this.clickHandler?.(this, undefined, {});
  }
}

class Menu extends EventEmitter {
  static buildFromTemplate(template) {
    if (!Array.isArray(template)) violate('Menu.buildFromTemplate needs an array');
    const menu = new Menu();
    menu.items = template.map((options) => new MenuItem(options, menu));
    return menu;
  }
  constructor() {
    super();
    this.items = [];
  }
}

const trays = [];

class Tray extends EventEmitter {
  constructor(image) {
    super();
    requireReady('new Tray');
    if (!(image instanceof NativeImage) && !(typeof image === 'string' && fs.existsSync(image))) violate('new Tray needs a NativeImage or the path of an image file');
    if (image instanceof NativeImage && image.isEmpty()) violate('new Tray with an empty image: nothing would show in the tray');
    this.image = image;
    this.tooltip = '';
    this.menu = null;
    this.destroyed = false;
    trays.push(this);
  }
  setToolTip(tooltip) {
    if (this.destroyed) violate('setToolTip on a destroyed tray');
    this.tooltip = tooltip;
  }
  /** Linux's app indicator shows the icon only once it has a context menu. */
  setContextMenu(menu) {
    if (this.destroyed) violate('setContextMenu on a destroyed tray');
    if (menu !== null && !(menu instanceof Menu)) violate('setContextMenu needs a Menu');
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
}

const openedExternally = [];
const shell = {
  async openExternal(url) {
    openedExternally.push(url);
  },
};

// ---- windows and web contents ---------------------------------------------------------------------

const windows = [];
let nextId = 1;

class WebContents extends EventEmitter {
  constructor(win) {
    super();
    this.id = nextId++;
    this.window = win;
    this.url = '';
    this.destroyed = false;
    this.windowOpenHandler = null;
    /** Renderer-side listeners of the main frame, by channel (set by its preload's ipcRenderer.on). */
    this.frameListeners = new Map();
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  getURL() {
    return this.url;
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(channel, ...args) {
    if (this.destroyed) violate(`webContents.send('${channel}') on a destroyed web contents`);
    const payload = cross(args, `webContents.send('${channel}')`);
    for (const listener of this.frameListeners.get(channel) ?? []) listener({ sender: null }, ...payload);
  }
}

class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return [...windows];
  }
  static getFocusedWindow() {
    return windows[0] ?? null;
  }
  constructor(options = {}) {
    super();
    requireReady('new BrowserWindow');
    this.options = options;
    this.id = nextId++;
    this.destroyed = false;
    this.shown = false;
    this.maximized = false;
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    this.webContents = new WebContents(this);
    this.loads = [];
    /** Settles when the first page load is over (the test waits on it). */
    this.loaded = new Promise((resolve, reject) => {
      this.markLoaded = resolve;
      this.markLoadFailed = reject;
    });
    windows.push(this);
    app.emit('web-contents-created', makeEvent(), this.webContents);
    windowWaiters.splice(0).forEach((resolve) => resolve(this));
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  isMaximized() {
    return this.maximized;
  }
  maximize() {
    this.maximized = true;
  }
  restore() {}
  focus() {}
  show() {
    if (this.destroyed) violate('show on a destroyed window');
    const was = this.shown;
    this.shown = true;
    if (!was) this.emit('show');
  }
  hide() {
    if (this.destroyed) violate('hide on a destroyed window');
    const was = this.shown;
    this.shown = false;
    if (was) this.emit('hide');
  }
  isVisible() {
    return this.shown && !this.destroyed;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  getBounds() {
    return { ...this.bounds };
  }
  /**
   * Loads a page as the browser would: app:// through the app's protocol handler (the preload runs
   * first, as Electron runs it before the page's scripts), http(s) only recorded (the dev server is
   * not running in the test). Then did-finish-load and ready-to-show.
   */
  async loadURL(url) {
    if (this.destroyed) violate('loadURL on a destroyed window');
    const load = { url, status: null, headers: {} };
    this.loads.push(load);
    this.webContents.url = url;
    try {
      if (!/^https?:/.test(url)) {
        const response = await fetchThroughProtocol(url);
        load.status = response.status;
        load.headers = Object.fromEntries(response.headers);
        load.body = await response.text();
      }
      const preload = this.options.webPreferences?.preload;
      if (preload) this.mainWorld = runPreload(preload, url, this.webContents);
    } catch (err) {
      this.markLoadFailed(err);
      throw err;
    }
    this.webContents.emit('did-finish-load');
    this.emit('ready-to-show');
    this.markLoaded(load);
  }
  close() {
    if (this.destroyed) return;
    const event = makeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    windows.splice(windows.indexOf(this), 1);
    this.emit('closed');
    if (windows.length === 0 && quitPhase === 'running') app.emit('window-all-closed', makeEvent());
  }
}

const windowWaiters = [];

// ---- the renderer side: a sandboxed preload in one frame ------------------------------------------

/** contextBridge's copy: plain data is cloned, functions are proxied (their arguments cloned too). */
function bridgeCopy(value, where) {
  if (typeof value === 'function') {
    return (...args) => {
      const result = value(...cross(args, `${where}()`));
      return result && typeof result.then === 'function' ? result.then((v) => cross(v, `${where}() result`)) : cross(result, `${where}() result`);
    };
  }
  if (value && typeof value === 'object') {
    const out = {};
    for (const [key, v] of Object.entries(value)) out[key] = bridgeCopy(v, `${where}.${key}`);
    return Object.freeze(out);
  }
  return cross(value, where);
}

/**
 * Runs a preload file as a sandboxed preload of a frame at `frameUrl`: a CommonJS function whose
 * require knows only 'electron'. Returns the main world (what contextBridge exposed).
 */
function runPreload(file, frameUrl, webContents) {
  const mainWorld = {};
  const required = [];
  const ipcRenderer = {
    async invoke(channel, ...args) {
      const handler = ipcHandlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      const event = { sender: webContents, senderFrame: { url: frameUrl }, frameId: 1, processId: 1 };
      try {
        return cross(await handler(event, ...cross(args, `ipcRenderer.invoke('${channel}')`)), `'${channel}' result`);
      } catch (err) {
        throw new Error(`Error invoking remote method '${channel}': ${err}`);
      }
    },
    on(channel, listener) {
      if (!webContents.frameListeners.has(channel)) webContents.frameListeners.set(channel, new Set());
      webContents.frameListeners.get(channel).add(listener);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      webContents.frameListeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
    off(channel, listener) {
      return ipcRenderer.removeListener(channel, listener);
    },
  };
  const contextBridge = {
    exposeInMainWorld(key, api) {
      if (Object.prototype.hasOwnProperty.call(mainWorld, key)) violate(`contextBridge.exposeInMainWorld('${key}') twice`);
      mainWorld[key] = bridgeCopy(api, key);
    },
  };
  const rendererElectron = Object.freeze({ contextBridge, ipcRenderer });
  const sandboxedRequire = (name) => {
    required.push(name);
    if (name === 'electron') return rendererElectron;
    violate(`the sandboxed preload required '${name}'; it may only require electron`);
    return undefined;
  };
  const code = fs.readFileSync(file, 'utf8');
  const module = { exports: {} };
  vm.runInNewContext(`(function (require, module, exports) {\n${code}\n})`, { console }, { filename: file })(sandboxedRequire, module, module.exports);
  return { world: mainWorld, required };
}

// ---- the test's handle ----------------------------------------------------------------------------

const boot = {
  violations,
  violated,
  privilegedSchemes,
  openedExternally,
  permissionHandlers,
  /** Emits ready (as Electron does once initialised) and creates the data folder as Chromium does (0700). */
  makeReady() {
    if (ready) violate('ready twice');
    fs.mkdirSync(app.getPath('userData'), { recursive: true, mode: 0o700 });
    ready = true;
    app.emit('ready', makeEvent(), {});
    readyResolve();
  },
  /** The first window created from now on, or the first existing one. */
  nextWindow() {
    return new Promise((resolve) => windowWaiters.push(resolve));
  },
  windows: () => [...windows],
  fetch: fetchThroughProtocol,
  runPreload,
  activate() {
    app.emit('activate', makeEvent(), windows.length > 0);
  },
  quitted: () => quitPromise,
  quitPhase: () => quitPhase,
  /** The user closes the window (its close button): Electron emits close, and destroys the window unless prevented. */
  closeWindow(win) {
    win.close();
  },
  trays: () => [...trays],
  /** The tray icon on screen: the last one made and not destroyed, with a context menu (else null). */
  liveTray: () => trays.filter((t) => !t.destroyed && t.menu !== null).at(-1) ?? null,
  messageBoxes,
  /** Scripts the answers (button indexes) of the next message boxes; answers a waiting one at once. */
  answerMessageBoxes(...answers) {
    for (const a of answers) {
      const waiting = pendingAnswers.shift();
      if (waiting) waiting(a);
      else messageBoxAnswers.push(a);
    }
  },
  /** The next message box shown from now on. */
  nextMessageBox() {
    return new Promise((resolve) => messageBoxWaiters.push(resolve));
  },
  notifications: notificationsShown,
};

module.exports = { app, BrowserWindow, Menu, MenuItem, Notification, Tray, dialog, ipcMain, nativeImage, net, protocol, screen, session, shell, boot };
