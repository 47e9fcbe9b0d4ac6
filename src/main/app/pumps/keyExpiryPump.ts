/** keyExpiry: a timer over the wallet's stored keys, reporting those inside the warning window or expired. */
import type { IpcEventPayload } from '../../../shared/ipc.js';
import { Loop } from './loop.js';
import { streamThrottle, type Pump, type PumpHost } from './pump.js';

const DAY_MS = 86_400_000;

export class KeyExpiryPump implements Pump {
  private readonly throttle;
  private readonly loop: Loop;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly notices = new Map<string, string>();

  constructor(private readonly host: PumpHost) {
    this.throttle = streamThrottle<IpcEventPayload<'keyExpiry'>['keys'][number]>(host, (k) => k.agent, (keys) => host.send('keyExpiry', { keys }));
    this.loop = new Loop(
      'key expiry check',
      async () => {
        await this.check();
        return host.timings.keyExpiryCheckMs;
      },
      host.logger,
    );
    this.unsubscribe.push(host.events.on('keys.changed', () => this.kick()));
  }

  async start(): Promise<void> {
    this.loop.kick();
  }

  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    await this.loop.stop();
    this.throttle.close();
  }

  private async check(): Promise<void> {
    const { ctx, wallet } = this.host;
    const keys = ctx.vault.list({ environment: ctx.profile.name, wallet }).filter((k) => k.expires_at !== null);
    if (keys.length === 0) return;
    const now = await ctx.clock.now();
    const windowMs = this.host.keyWarningDays() * DAY_MS;
    for (const k of keys) {
      const expiresAt = k.expires_at!;
      const left = expiresAt - now;
      if (left > windowMs) {
        this.notices.delete(k.agent);
        continue;
      }
      const expired = left <= 0;
      this.throttle.push({ agent: k.agent, name: k.name, expires_at: expiresAt, expires_in_ms: Math.round(left), expired });
      const state = `${expired ? 'expired' : 'expiring'}:${expiresAt}`;
      if (this.notices.get(k.agent) !== state) {
        this.notices.set(k.agent, state);
        this.host.notify(
          'key_expiry',
          expired ? 'Trading key expired' : 'Trading key expires soon',
          expired ? `${k.name} (${k.agent}) has expired: renew it or authorize a new key.` : `${k.name} (${k.agent}) expires in ${Math.max(1, Math.ceil(left / DAY_MS))} day(s): renew it.`,
        );
      }
    }
  }
}
