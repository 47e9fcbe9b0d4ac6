/**
 * Connecting a Trezor as the app's main wallet. The link is chosen as on the command line
 * (PERPS_TREZOR_TRANSPORT: Bridge when it runs, else USB, or the emulator over loopback UDP). The device
 * is asked what it is first (so every prompt names the model: only the Model One asks for its PIN as
 * matrix positions), then shows the address at the chosen path for the person to check. The link stays
 * open for the session, like the Ledger's; each signature is one exchange the person can cancel from
 * the app, which tells the device to stop.
 *
 * The Model One signs two hashes only: before it does, the page shows them through the same
 * blind-signing confirmation as the Ledger's fallback, with the action's plain summary.
 */
import type { TypedData } from '../../shared/eip712/index.js';
import { summarizeTypedData } from '../signers/offlineSigner.js';
import type { Signer } from '../signers/signer.js';
import { initialize } from '../signers/trezor/deviceCalls.js';
import { openTrezorWire, parseTrezorTransport, TRANSPORT_ENV, type OpenTrezorDeps } from '../signers/trezor/openTrezor.js';
import { TrezorSession } from '../signers/trezor/session.js';
import { TrezorSigner } from '../signers/trezor/trezorSigner.js';
import { encodeMessage } from '../signers/trezor/messages.js';
import type { MessageWire } from '../signers/trezor/wire.js';
import type { PromptBroker } from './prompts.js';
import type { TrezorPrompts } from './trezorPrompts.js';

export interface TrezorConnection {
  signer: Signer;
  label: string;
  path: string;
  close(): Promise<void>;
}

/** Opens the link PERPS_TREZOR_TRANSPORT names (a bad value is INVALID_SETTING, before anything opens). */
export function trezorOpener(env: NodeJS.ProcessEnv, deps: OpenTrezorDeps = {}): () => Promise<MessageWire> {
  return () => openTrezorWire(parseTrezorTransport(env[TRANSPORT_ENV]), deps);
}

export async function connectTrezor(options: {
  open: () => Promise<MessageWire>;
  prompts: TrezorPrompts;
  broker: PromptBroker;
  path: string;
  /** Releasing the device after a failed connect can fail too (unplugged); that is recorded, not thrown. */
  warn: (message: string) => void;
}): Promise<TrezorConnection> {
  const { prompts, broker } = options;
  const wire = await options.open();
  let pendingSummary: string[] = [];
  try {
    const trezor = await prompts.run(
      null,
      () => wire.interrupt(encodeMessage('Cancel')),
      async () => {
        prompts.setModel((await initialize(new TrezorSession(wire, prompts.interaction))).name);
        return TrezorSigner.connect({
          wire,
          interaction: prompts.interaction,
          path: options.path,
          showAddress: true,
          confirmHashes: (p) =>
            broker.confirmBlindSigning({ primary_type: p.primaryType, domain_separator: p.domainSeparatorHex, message_hash: p.messageHashHex, summary: pendingSummary }),
        });
      },
    );
    const signer: Signer = {
      kind: 'trezor',
      address: trezor.address,
      signTypedData: (data: TypedData) => {
        pendingSummary = summarizeTypedData(data);
        return prompts.run(trezor.model.name, () => trezor.cancel(), () => trezor.signTypedData(data));
      },
    };
    return { signer, label: `${trezor.model.name} ${trezor.path}`, path: trezor.path, close: () => trezor.close() };
  } catch (err) {
    await wire.close().catch((closeErr: unknown) => options.warn(`[wallet] releasing the Trezor after a failed connect failed: ${(closeErr as Error).message}`));
    throw err;
  }
}
