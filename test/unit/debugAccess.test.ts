/**
 * findDebugAccess (src/main/shell/debugAccess.ts): which debugging doors a start of the app has open, in
 * every form the switches can take, and none where there is none (the app's own flags, lookalikes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDebugAccess, vaultRefusal, type StartConditions } from '../../src/main/shell/debugAccess.js';

const clean: StartConditions = { argv: ['/opt/Perps Desk/perps-desk'], execArgv: [], env: {}, inspectorUrl: undefined };

describe('findDebugAccess', () => {
  it('finds nothing in a normal start', () => {
    expect(findDebugAccess(clean)).toEqual([]);
    expect(findDebugAccess({ ...clean, env: { NODE_OPTIONS: '--max-old-space-size=4096 --no-warnings' } })).toEqual([]);
  });

  it.each([
    [['--remote-debugging-port=9222'], '--remote-debugging-port'],
    [['--remote-debugging-port', '9222'], '--remote-debugging-port'],
    [['-remote-debugging-port=1'], '--remote-debugging-port'],
    [['/Remote-Debugging-Port=1'], '--remote-debugging-port'],
    [['--remote-debugging-pipe'], '--remote-debugging-pipe'],
    [['--inspect'], '--inspect'],
    [['--inspect=127.0.0.1:9229'], '--inspect'],
    [['--inspect-brk'], '--inspect-brk'],
    [['--inspect-brk=0'], '--inspect-brk'],
    [['--inspect-port=9230'], '--inspect-port'],
    [['--inspect-wait'], '--inspect-wait'],
  ])('finds %j on the command line', (args, shown) => {
    expect(findDebugAccess({ ...clean, argv: [...clean.argv, ...args] })).toContain(shown);
  });

  it('finds a switch Chromium parsed even when argv does not show it', () => {
    expect(findDebugAccess({ ...clean, hasSwitch: (name) => name === 'remote-debugging-pipe' })).toEqual(['--remote-debugging-pipe']);
  });

  it('finds Node debugger options in execArgv and an inspector that is already open', () => {
    expect(findDebugAccess({ ...clean, execArgv: ['--inspect=0'] })).toEqual(['--inspect']);
    expect(findDebugAccess({ ...clean, inspectorUrl: 'ws://127.0.0.1:9229/abc' })).toEqual(['an open inspector']);
  });

  it.each([
    ['--require /tmp/x.cjs', 'NODE_OPTIONS --require'],
    ['-r /tmp/x.cjs', 'NODE_OPTIONS -r'],
    ['--require=/tmp/x.cjs', 'NODE_OPTIONS --require'],
    ['--import=data:text/javascript,1', 'NODE_OPTIONS --import'],
    ['--import "/tmp/a b.mjs"', 'NODE_OPTIONS --import'],
    ['--no-warnings --loader ./l.mjs', 'NODE_OPTIONS --loader'],
    ['--experimental-loader=./l.mjs', 'NODE_OPTIONS --experimental-loader'],
    ['--inspect-brk', 'NODE_OPTIONS --inspect-brk'],
  ])('finds NODE_OPTIONS %j', (value, shown) => {
    expect(findDebugAccess({ ...clean, env: { NODE_OPTIONS: value } })).toEqual([shown]);
  });

  it.each([
    ['--experimental_loader=./l.mjs', 'NODE_OPTIONS --experimental-loader'],
    ['--experimental_loader ./l.mjs', 'NODE_OPTIONS --experimental-loader'],
    ['--inspect_brk', 'NODE_OPTIONS --inspect-brk'],
    ['--inspect_brk=0', 'NODE_OPTIONS --inspect-brk'],
    ['--inspect_port=9230', 'NODE_OPTIONS --inspect-port'],
    ['--inspect-brk-node', 'NODE_OPTIONS --inspect-brk-node'],
    ['--debug_port=1', 'NODE_OPTIONS --debug-port'],
    ['--openssl_config=/tmp/engine.cnf', 'NODE_OPTIONS --openssl-config'],
    ['--heapsnapshot-signal=SIGUSR2', 'NODE_OPTIONS --heapsnapshot-signal'],
  ])('issue 36 item 11: finds NODE_OPTIONS %j, a spelling Node accepts', (value, shown) => {
    expect(findDebugAccess({ ...clean, env: { NODE_OPTIONS: value } })).toEqual([shown]);
  });

  it('issue 36 item 11: any mix of "-" and "_" in a door’s name is found, in NODE_OPTIONS, execArgv and argv alike', () => {
    const doors = ['--require', '--import', '--loader', '--experimental-loader', '--inspect', '--inspect-brk', '--inspect-port', '--inspect-wait', '--inspect-brk-node', '--openssl-config', '--heapsnapshot-signal'];
    fc.assert(
      fc.property(fc.constantFrom(...doors), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.boolean(), (door, underscores, withValue) => {
        let n = 0;
        const spelled = '--' + door.slice(2).replace(/-/g, () => (underscores[n++ % 4] ? '_' : '-')) + (withValue ? '=x' : '');
        const found = findDebugAccess({ ...clean, env: { NODE_OPTIONS: spelled } });
        expect(found).toEqual([`NODE_OPTIONS ${door}`]);
        if (door.startsWith('--inspect')) {
          expect(findDebugAccess({ ...clean, execArgv: [spelled] })).toEqual([door]);
          expect(findDebugAccess({ ...clean, argv: [...clean.argv, spelled] })).toEqual([door]);
        }
      }),
    );
    // A value keeps its underscores: only the name is respelled.
    expect(findDebugAccess({ ...clean, env: { NODE_OPTIONS: '--max_old_space_size=4096 --title=my_app' } })).toEqual([]);
  });

  it('does not take lookalikes for doors', () => {
    const argv = [...clean.argv, '--remote-debugging-portal', '--inspector', '--inspect-me', 'remote-debugging-port', '--profile=mainnet', '--required'];
    expect(findDebugAccess({ ...clean, argv, env: { NODE_OPTIONS: '--requireX --imports --max-http-header-size=1' } })).toEqual([]);
  });

  it('never throws on any command line or NODE_OPTIONS, and always finds an added --remote-debugging-port', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.option(fc.string(), { nil: undefined }), (argv, nodeOptions) => {
        const start = { ...clean, argv, env: { NODE_OPTIONS: nodeOptions } };
        expect(() => findDebugAccess(start)).not.toThrow();
        expect(findDebugAccess({ ...start, argv: [...argv, '--remote-debugging-port=0'] })).toContain('--remote-debugging-port');
      }),
    );
  });

  it('says which doors and that the vault stays closed', () => {
    expect(vaultRefusal(['--inspect', 'NODE_OPTIONS --require'])).toMatch(/\(--inspect, NODE_OPTIONS --require\), so the vault stays closed/);
  });
});
