/**
 * The import directions of ../shared/design/layout.md are enforced by lint: these prove the rules fire
 * (and stay quiet on allowed imports), so a layering break fails `npm run lint`, not a code review.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function errorsFor(relPath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, relPath) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layering rules', () => {
  it.each([
    ["import fs from 'node:fs'; export const x = fs;", /Node APIs/],
    ["import fs from 'fs'; export const x = fs;", /Node APIs/],
    ["import { ipcRenderer } from 'electron'; export const x = ipcRenderer;", /Electron/],
    ["import { x } from '../../main/vault/index.js'; export const y = x;", /window\.perps/],
    ["import { x } from '../../sim/index.js'; export const y = x;", /simulator/],
  ])('renderer: %s is refused', async (code, why) => {
    const errs = await errorsFor('src/renderer/src/Probe.tsx', code);
    expect(errs.join('\n')).toMatch(why);
  });

  it('renderer may import shared types', async () => {
    expect(await errorsFor('src/renderer/src/Probe.tsx', "import type { Market } from '../../shared/protocol/index.js'; export type M = Market;\n")).toEqual([]);
  });

  it.each([
    ["import path from 'node:path'; export const x = path;", /Node APIs/],
    ["import { app } from 'electron'; export const x = app;", /Electron/],
    ['export const x = () => document.title;\n', /DOM/],
    ['export const x = () => window.localStorage;\n', /DOM/],
    ["export const x = () => Buffer.from('a');\n", /Node APIs/],
    ['export const x = () => process.env;\n', /Node APIs/],
    ["import { x } from '../main/vault/index.js'; export const y = x;", /depends on nothing/],
  ])('shared: %s is refused', async (code, why) => {
    const errs = await errorsFor('src/shared/probe.ts', code);
    expect(errs.join('\n')).toMatch(why);
  });

  it('shared may use its libraries', async () => {
    expect(await errorsFor('src/shared/probe.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual([]);
  });

  it('the command line and the IPC handlers never import each other, and the command line never reaches the app', async () => {
    expect((await errorsFor('src/cli/probe.ts', "import { x } from '../main/ipc/registerHandlers.js'; export const y = x;")).join()).toMatch(/never IPC/);
    expect((await errorsFor('src/cli/probe.ts', "import { x } from '../main/app/session.js'; export const y = x;")).join()).toMatch(/never the app/);
    expect((await errorsFor('src/main/ipc/probe.ts', "import { x } from '../../cli/output.js'; export const y = x;")).join()).toMatch(/never import each other/);
  });

  it('nothing outside src/main/app imports a desk (a handler may name its type)', async () => {
    expect((await errorsFor('src/main/ipc/handlers/probe.ts', "import { OrdersDesk } from '../../app/desks/ordersDesk.js'; export const y = OrdersDesk;")).join()).toMatch(/only src\/main\/app builds desks/i);
    expect((await errorsFor('src/main/services/probe.ts', "import { OrdersDesk } from '../app/desks/ordersDesk.js'; export const y = OrdersDesk;")).join()).toMatch(/Only src\/main\/app builds desks/);
    expect(await errorsFor('src/main/ipc/handlers/probe.ts', "import type { OrdersDesk } from '../../app/desks/ordersDesk.js';\nexport type Y = OrdersDesk;\n")).toEqual([]);
    expect(await errorsFor('src/main/app/probe.ts', "import { OrdersDesk } from './desks/ordersDesk.js';\nexport const y = OrdersDesk;\n")).toEqual([]);
  });

  it('the simulator may not import main, and the preload may not import main', async () => {
    expect((await errorsFor('src/sim/probe.ts', "import { x } from '../main/vault/index.js'; export const y = x;")).join()).toMatch(/src\/shared only/);
    expect((await errorsFor('src/preload/probe.ts', "import { x } from '../main/vault/index.js'; export const y = x;")).join()).toMatch(/shared IPC contract/);
  });
});
