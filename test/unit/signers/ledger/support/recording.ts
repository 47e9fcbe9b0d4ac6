/**
 * Making and replaying APDU recordings.
 *
 * How a recording is made: the code under test runs against the software Ethereum app
 * (ethAppEmulator.ts) wrapped in @ledgerhq/hw-transport-mocker's createTransportRecorder, which writes
 * every exchange ("=> apdu" / "<= answer + status word") into a RecordStore. The emulator answers like a
 * device, with real signatures over what the APDUs encode, made with a known test key.
 *
 * How it is used: the signer under test then runs against openTransportReplayer on that recording. The
 * replayer fails on the first APDU that differs by one byte, and on a leftover or missing exchange
 * (ensureQueueEmpty), so the test proves the exact APDU sequence, and the signer's own recovery check
 * proves the answers are signatures of the digest src/shared computes.
 */
import { mocker, type Transport } from './ledgerKit.js';
import { EthAppEmulator, type EmulatorOptions } from './ethAppEmulator.js';

export interface Recording<T> {
  /** RecordStore text: "=> hex\n<= hex\n" per exchange. */
  text: string;
  exchanges: [apdu: string, answer: string][];
  emulator: EthAppEmulator;
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
}

export async function record<T>(options: EmulatorOptions, run: (transport: Transport) => Promise<T>): Promise<Recording<T>> {
  const store = new mocker.RecordStore();
  const emulator = new EthAppEmulator(options);
  const Recorder = mocker.createTransportRecorder(emulator, store);
  const transport = new Recorder(emulator);
  let outcome: Recording<T>['outcome'];
  try {
    outcome = { ok: true, value: await run(transport) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  return { text: store.toString(), exchanges: store.queue.map(([a, b]) => [a, b]), emulator, outcome };
}

export async function replayer(text: string): Promise<{ transport: Transport; store: InstanceType<typeof mocker.RecordStore> }> {
  const store = mocker.RecordStore.fromString(text);
  const transport = await mocker.openTransportReplayer(store);
  return { transport, store };
}

export function exchangesText(exchanges: readonly (readonly [string, string])[]): string {
  return exchanges.map(([a, b]) => `=> ${a}\n<= ${b}`).join('\n') + '\n';
}
