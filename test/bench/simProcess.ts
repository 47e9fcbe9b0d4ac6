/**
 * A simulator in its own process, started the way users start it (`bin/perps.js sim`, the built command
 * line), on a free port. Benches talk to it over loopback, so the client under test never shares an
 * event loop with the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT } from '../support/paths.js';

export interface SimProcess {
  /** The URLs the simulator printed (base_url, venue_info_url, control_url, ...). */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

export function startSimProcess(args: readonly string[] = []): Promise<SimProcess> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), 'sim', '--port', '0', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`simulator exited early with ${code}`)));
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      child.removeAllListeners('exit');
      const stop = async (): Promise<void> => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      };
      resolve({ urls: JSON.parse(line) as Record<string, string>, stop });
    });
  });
}
