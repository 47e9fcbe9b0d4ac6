/**
 * The frame's parts that are never on the first frame, in one chunk loaded right after it (App.tsx,
 * Shell.tsx, lib/afterFirstPaint.ts): the dialogs main's prompts open (blind signing, an offline
 * signature), which read their pending prompts from a store fed from the first frame on, and the
 * keyboard shortcut sheet.
 */
export { PromptDialogs } from '../features/notifications/PromptDialogs';
export { CommandPaletteHost } from '../features/commandPalette/CommandPaletteHost';
export { ShortcutSheet } from '../features/shortcuts/ShortcutSheet';
