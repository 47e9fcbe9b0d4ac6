/**
 * At the start of every command: TP/SL a close lifted and a killed process never re-armed (issue 35,
 * item 2) are re-armed before the command runs (services/positions/rearm.ts). Only a file check when
 * there is nothing pending, so a command pays for it only after a crash. What was done, and anything
 * that could not be, is said on stderr; the command itself then runs as asked.
 */
import type { Command } from 'commander';

export async function restoreProtectionBeforeCommand(cmd: Command): Promise<void> {
  const { globalsOf, profileOf, contextOf } = await import('./globals.js');
  const g = globalsOf(cmd);
  let dataDir: string;
  try {
    dataDir = profileOf(g).dataDir;
  } catch {
    return; // no usable profile: the command reports that itself
  }
  const { hasPendingProtection } = await import('../main/services/positions/protectionFolder.js');
  if (!hasPendingProtection(dataDir)) return;
  const { restorePendingProtection } = await import('../main/services/positions/rearm.js');
  const { outcomes, problems } = await restorePendingProtection(contextOf(g));
  for (const o of outcomes) for (const line of o.summary) process.stderr.write(`${o.past_mark.length > 0 || o.failed.length > 0 ? 'warning' : 'note'}: restored after an interrupted close: ${line}\n`);
  for (const p of problems) process.stderr.write(`warning: ${p}\n`);
}
