/**
 * Running in the tray (issue 27, item 5): the close/quit decisions, the tray menu and the quit dialog's
 * words (src/main/shell/trayMode.ts), the controller against a host double, and the background-work
 * registry (src/main/app/backgroundWork.ts). The Electron side is tested through the built bundle in
 * test/boot/trayMode.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_WORK_KINDS, BackgroundWork, type ActiveWork } from '../../src/main/app/backgroundWork.js';
import { decideWindowClose, keptRunningNotice, quitConfirmation, trayMenu, trayTooltip, TrayMode, type QuitConfirmation, type TrayHost, type TrayMenuItem } from '../../src/main/shell/trayMode.js';

const twap: ActiveWork = { kind: 'twap', id: 'aaaaaaaaaaaa', label: 'TWAP buy 2 ETH, 1 of 4 slices sent' };
const trail: ActiveWork = { kind: 'trailing_stop', id: 'ETH', label: 'Trailing stop ETH long, 1.5% behind 2,480' };
const alert: ActiveWork = { kind: 'alert', id: 'a1', label: 'ETH above 2,600' };
const alert2: ActiveWork = { kind: 'alert', id: 'a2', label: 'BTC below 60,000' };

describe('what closing the window does', () => {
  const platforms: NodeJS.Platform[] = ['linux', 'win32', 'darwin'];
  it('with nothing active it closes as before tray mode, on every platform and either setting', () => {
    for (const platform of platforms) for (const keepInTray of [true, false]) expect(decideWindowClose({ platform, quitting: false, keepInTray, activeCount: 0 })).toBe('close');
  });
  it('with work active and tray mode on it hides into the tray (macOS too)', () => {
    for (const platform of platforms) expect(decideWindowClose({ platform, quitting: false, keepInTray: true, activeCount: 2 })).toBe('hide');
  });
  it('with tray mode off it is a quit (which asks), except on macOS where closing a window never quits', () => {
    expect(decideWindowClose({ platform: 'linux', quitting: false, keepInTray: false, activeCount: 1 })).toBe('quit');
    expect(decideWindowClose({ platform: 'win32', quitting: false, keepInTray: false, activeCount: 1 })).toBe('quit');
    expect(decideWindowClose({ platform: 'darwin', quitting: false, keepInTray: false, activeCount: 1 })).toBe('close');
  });
  it('once a quit is let through, windows close whatever runs', () => {
    fc.assert(
      fc.property(fc.constantFrom(...platforms), fc.boolean(), fc.nat(5), (platform, keepInTray, activeCount) => {
        expect(decideWindowClose({ platform, quitting: true, keepInTray, activeCount })).toBe('close');
      }),
    );
  });
});

describe('the quit confirmation', () => {
  it('asks nothing when nothing is active', () => {
    expect(quitConfirmation([])).toBeNull();
  });
  it('names each piece of work, kind by kind, and what quitting does to it', () => {
    const words = quitConfirmation([alert, twap, alert2])!;
    expect(words.message).toBe('Quit Perps Desk? 1 TWAP and 2 alerts will stop.');
    expect(words.detail).toBe(
      [
        '1 TWAP:\n  • TWAP buy 2 ETH, 1 of 4 slices sent\nThe TWAP pauses after its current slice and waits on the next start for you to resume or stop it.',
        '2 alerts:\n  • ETH above 2,600\n  • BTC below 60,000\nEach alert is not watched until the app runs again.',
      ].join('\n\n'),
    );
    expect(words.confirmLabel).toBe('Quit');
  });
  it('says a trailing stop’s last level stays armed at the service whenever trailing stops are among them', () => {
    const kinds = fc.subarray([...BACKGROUND_WORK_KINDS], { minLength: 1 });
    fc.assert(
      fc.property(kinds, fc.integer({ min: 1, max: 3 }), (chosen, n) => {
        const active = chosen.flatMap((kind) => Array.from({ length: n }, (_, i) => ({ kind, id: `${kind}${i}`, label: `${kind} ${i}` })));
        const words = quitConfirmation(active)!;
        expect(words.detail.includes('its last stop level stays armed at the service')).toBe(chosen.includes('trailing_stop'));
        for (const w of active) expect(words.detail).toContain(`• ${w.label}`);
      }),
    );
    expect(quitConfirmation([trail])!.detail).toBe('1 trailing stop:\n  • Trailing stop ETH long, 1.5% behind 2,480\nThe trailing stop stops trailing; its last stop level stays armed at the service.');
  });
  it('says an OCO pair is no longer watched once the app quits, its legs resting, and taken up when the app runs again (#38: pairs run in the app)', () => {
    const oco = { kind: 'oco' as const, id: 'o1', label: 'OCO ETH: buy 0.05 at 3,300 / sell at 3,500' };
    const words = quitConfirmation([oco])!;
    expect(words.message).toBe('Quit Perps Desk? 1 OCO pair will stop.');
    expect(words.detail).toBe(
      '1 OCO pair:\n  • OCO ETH: buy 0.05 at 3,300 / sell at 3,500\nThe OCO pair is no longer watched: both orders keep resting at the service, and a fill of one while the app is closed cancels the other when the app runs again.',
    );
  });
  it('says what quitting does to a chase: cancelled at its limit choice of cancel, else left resting and taken up again (#38 item 3)', () => {
    const chase = { kind: 'chase' as const, id: 'c1', label: 'Chase ETH: buy 0.01 at 3,399.9, 0 filled' };
    const words = quitConfirmation([chase])!;
    expect(words.message).toBe('Quit Perps Desk? 1 chase will stop.');
    expect(words.detail).toBe(
      '1 chase:\n  • Chase ETH: buy 0.01 at 3,399.9, 0 filled\nThe chase stops chasing: if it is set to cancel at its limit, its order is cancelled and the chase ends; if set to leave, its order keeps resting and the chase is taken up again when the app runs and this wallet opens.',
    );
  });
});

describe('the tray menu', () => {
  it('is open, what is running (one line each), quit', () => {
    const labels = trayMenu([twap, alert]).map((i) => (i.type === 'separator' ? '---' : i.label));
    expect(labels).toEqual(['Open Perps Desk', '---', 'Running: 1 TWAP and 1 alert', twap.label, alert.label, '---', 'Quit Perps Desk']);
    expect(trayTooltip([twap, alert])).toBe('Perps Desk: 1 TWAP and 1 alert running');
  });
  it('says nothing runs once the work is done', () => {
    expect(trayMenu([]).filter((i) => i.type === 'info').map((i) => (i as { label: string }).label)).toEqual(['Nothing running']);
    expect(trayTooltip([])).toBe('Perps Desk');
  });
  it('tells how many are active when the window first goes to the tray', () => {
    expect(keptRunningNotice([twap, trail, alert]).body).toMatch(/^Perps Desk keeps running in the tray: 3 active \(1 TWAP, 1 alert and 1 trailing stop\)/);
  });
});

/** A host double: a window that is shown or hidden, a tray, scripted dialog answers. */
function harness(options: { platform?: NodeJS.Platform; keepInTray?: boolean; dialogFails?: boolean } = {}) {
  const work = new BackgroundWork();
  let items: ActiveWork[] = [];
  const [reg] = BACKGROUND_WORK_KINDS.map((kind) => work.register({ kind, list: () => items.filter((w) => w.kind === kind) }));
  const state = {
    visible: true,
    tray: null as null | { menu: readonly TrayMenuItem[]; tooltip: string; choose: (i: TrayMenuItem) => void },
    asked: [] as QuitConfirmation[],
    answers: [] as ((yes: boolean) => void)[],
    notices: [] as string[],
    quits: 0,
    errors: [] as string[],
  };
  const host: TrayHost = {
    platform: options.platform ?? 'linux',
    activeWork: () => work.active(),
    onWorkChange: (l) => work.onChange(l),
    keepInTray: () => options.keepInTray ?? true,
    showWindow: () => (state.visible = true),
    hideWindow: () => (state.visible = false),
    tray: {
      show: (menu, tooltip, choose) => (state.tray = { menu, tooltip, choose }),
      destroy: () => (state.tray = null),
    },
    confirmQuit: (words) => {
      state.asked.push(words);
      if (options.dialogFails) return Promise.reject(new Error('no display'));
      return new Promise((resolve) => state.answers.push(resolve));
    },
    notify: (n) => state.notices.push(n.body),
    // app.quit: before-quit asks the controller; a let-through quit closes the window.
    quit: () => {
      state.quits++;
      if (mode.allowQuit()) state.visible = false;
    },
    logError: (m) => state.errors.push(m),
  };
  const mode = new TrayMode(host);
  const setWork = (next: ActiveWork[]) => {
    items = next;
    reg!.changed();
  };
  const choose = (label: string) => {
    const item = state.tray?.menu.find((i) => i.type !== 'separator' && i.label === label);
    if (!item) throw new Error(`no ${label}`);
    state.tray!.choose(item);
  };
  const answer = async (yes: boolean) => {
    state.answers.shift()!(yes);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { mode, state, setWork, choose, answer };
}

describe('the tray controller', () => {
  it('nothing active: the close goes through, no tray, no question', () => {
    const h = harness();
    expect(h.mode.onWindowClose()).toBe(false);
    expect(h.mode.allowQuit()).toBe(true);
    expect(h.state).toMatchObject({ tray: null, asked: [], notices: [] });
  });

  it('a TWAP running: close hides into the tray, told once; the menu follows the work; Open brings the window back', () => {
    const h = harness();
    h.setWork([twap]);
    expect(h.mode.onWindowClose()).toBe(true);
    expect(h.state.visible).toBe(false);
    expect(h.mode.inTray).toBe(true);
    expect(h.state.tray?.tooltip).toBe('Perps Desk: 1 TWAP running');
    expect(h.state.notices).toHaveLength(1);
    h.setWork([]);
    expect(h.state.tray?.menu.some((i) => i.type === 'info' && i.label === 'Nothing running')).toBe(true);
    h.setWork([twap]);
    h.choose('Open Perps Desk');
    expect(h.state).toMatchObject({ visible: true, tray: null });
    expect(h.mode.inTray).toBe(false);
    expect(h.mode.onWindowClose()).toBe(true);
    expect(h.state.notices).toHaveLength(1);
    // Choosing a running TWAP's line opens the window too.
    h.choose(twap.label);
    expect(h.state.visible).toBe(true);
  });

  it('Quit asks once however often it is chosen; Cancel keeps everything, Quit lets the quit through', async () => {
    const h = harness();
    h.setWork([twap]);
    h.mode.onWindowClose();
    h.choose('Quit Perps Desk');
    h.choose('Quit Perps Desk');
    expect(h.state.asked).toHaveLength(1);
    expect(h.state.asked[0]!.message).toBe('Quit Perps Desk? 1 TWAP will stop.');
    await h.answer(false);
    expect(h.state.tray).not.toBeNull();
    expect(h.mode.onWindowClose()).toBe(true);
    h.choose('Quit Perps Desk');
    await h.answer(true);
    expect(h.state.tray).toBeNull();
    // The confirmed quit went through, and the windows it closes are not kept.
    expect(h.mode.allowQuit()).toBe(true);
    expect(h.mode.onWindowClose()).toBe(false);
  });

  it('issue 36 item 15: Quit reads the work again; a trailing stop started while the dialog was open is asked about before it stops', async () => {
    const h = harness();
    h.setWork([twap]);
    h.mode.onWindowClose();
    h.choose('Quit Perps Desk');
    expect(h.state.asked).toHaveLength(1);
    expect(h.state.asked[0]!.detail).not.toContain(trail.label);
    // While the dialog is open, a trailing stop starts.
    h.setWork([twap, trail]);
    await h.answer(true);
    expect(h.state.tray).not.toBeNull();
    expect(h.state.asked).toHaveLength(2);
    expect(h.state.asked[1]!.message).toBe('Quit Perps Desk? 1 TWAP and 1 trailing stop will stop.');
    expect(h.state.asked[1]!.detail).toContain(`• ${trail.label}`);
    // Cancel on the second question keeps everything.
    await h.answer(false);
    expect(h.mode.allowQuit()).toBe(false);
    expect(h.state.asked).toHaveLength(3);
    // Work that ended meanwhile needs no second question: the TWAP finishing does not stop the quit.
    h.setWork([trail]);
    await h.answer(true);
    expect(h.state.asked).toHaveLength(3);
    expect(h.mode.allowQuit()).toBe(true);
    expect(h.state.tray).toBeNull();
  });

  it('issue 36 item 9: a label with control or bidi characters reaches the dialog and the menu as one clean line', () => {
    const hostile: ActiveWork = { kind: 'alert', id: 'x', label: 'ETH above 2,600\x1b]52;c;ZXZpbA==\x07\nsigned OK\u202E' };
    const words = quitConfirmation([hostile])!;
    expect(words.detail).toContain('• ETH above 2,600]52;c;ZXZpbA== signed OK\n');
    // eslint-disable-next-line no-control-regex -- looks for the control characters that must be gone
    expect(words.detail).not.toMatch(/[\x00-\x08\x0b-\x1f\u202e]/);
    const menuLine = trayMenu([hostile]).find((i) => i.type === 'work') as { label: string };
    expect(menuLine.label).toBe('ETH above 2,600]52;c;ZXZpbA== signed OK');
  });

  it('tray mode off: closing with work active is a quit that asks; Cancel keeps the window', async () => {
    const h = harness({ keepInTray: false });
    h.setWork([twap]);
    expect(h.mode.onWindowClose()).toBe(true);
    expect(h.state).toMatchObject({ visible: true, tray: null, quits: 1 });
    expect(h.state.asked).toHaveLength(1);
    await h.answer(false);
    expect(h.state.visible).toBe(true);
    h.mode.onWindowClose();
    await h.answer(true);
    expect(h.state.visible).toBe(false);
    expect(h.mode.onWindowClose()).toBe(false);
  });

  it('a Windows shutdown or log-off closes the window without hiding or asking', () => {
    const h = harness();
    h.setWork([twap]);
    h.mode.onSessionEnd();
    expect(h.mode.onWindowClose()).toBe(false);
    expect(h.state.asked).toEqual([]);
  });

  it('a failing dialog keeps the app running and says why', async () => {
    const h = harness({ dialogFails: true });
    h.setWork([twap]);
    expect(h.mode.allowQuit()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.state.errors).toEqual(['[tray] the quit confirmation failed, so the app keeps running: no display']);
    expect(h.mode.onWindowClose()).toBe(true);
  });
});

describe('the background-work registry', () => {
  it('lists what each provider has active, kinds in a fixed order, and tells listeners of changes', () => {
    const work = new BackgroundWork();
    let changes = 0;
    work.onChange(() => changes++);
    const alerts = work.register({ kind: 'alert', list: () => [{ id: alert.id, label: alert.label }] });
    work.register({ kind: 'twap', list: () => [{ id: twap.id, label: twap.label }] });
    expect(work.active()).toEqual([twap, alert]);
    alerts.changed();
    alerts.unregister();
    expect(work.active()).toEqual([twap]);
    expect(changes).toBe(4);
  });
  it('counts a provider whose list fails as active work (a quit still asks), and reports the failure', () => {
    const failures: string[] = [];
    const work = new BackgroundWork((kind, err) => failures.push(`${kind}: ${(err as Error).message}`));
    work.register({ kind: 'trailing_stop', list: () => { throw new Error('record unreadable'); } });
    const active = work.active();
    expect(active).toEqual([{ kind: 'trailing_stop', id: 'trailing_stop:unreadable', label: 'trailing stops (their list could not be read)' }]);
    expect(failures).toEqual(['trailing_stop: record unreadable']);
    expect(quitConfirmation(active)!.detail).toContain('its last stop level stays armed at the service');
  });
});
