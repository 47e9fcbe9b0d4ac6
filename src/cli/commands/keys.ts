/**
 * `perps keys new|authorize|submit|list|revoke|renew`: trading keys (agents).
 *
 *   keys new --wallet ADDR [--name N]                      prints the new key's address
 *   keys authorize --wallet ADDR --agent ADDR --signer SPEC [--expires-in 90d] [--chain-id N] [--out FILE]
 *                                                          signs AuthorizeAgent and registers it, or writes the
 *                                                          ready register body to FILE (offline ceremony: no
 *                                                          network is used, the expiry counts from this clock)
 *   keys submit FILE                                       registers such a body
 *   keys list --wallet ADDR
 *   keys revoke --wallet ADDR --agent ADDR --signer SPEC
 *   keys renew --wallet ADDR --agent ADDR --signer SPEC [--expires-in 90d]
 *
 * authorize, revoke and renew prepare (every check, the nonce, the exact typed data) and then sign and
 * send; with --dry-run they print what would be signed instead and need no --signer (dryRun.ts).
 * Authorizing an agent this data folder does not hold is the key ceremony's legitimate case (the key was
 * made on the trading machine): it goes ahead, with a warning that says so.
 */
import { Option, type Command } from 'commander';
import {
  checkAddress,
  DEFAULT_KEY_LIFETIME_DAYS,
  MAX_KEY_LIFETIME_DAYS,
  checkLifetimeDays,
  createTradingKey,
  listTradingKeys,
  prepareAuthorize,
  prepareRenew,
  prepareRevoke,
  signAuthorize,
  submitAuthorize,
  submitRegisterBody,
  submitRenew,
  submitRevoke,
  type TradingKeyRow,
} from '../../main/services/keys/index.js';
import { printDryRun } from '../dryRun.js';
import { signerSpecUpFront } from '../signerUpFront.js';
import { contextOf, globalsOf, signingContextOf, type GlobalOptions } from '../globals.js';
import { formatFields, formatTable, formatTime, runAction } from '../output.js';
import { writePrivateFile } from '../outFile.js';
import { readJsonFile } from '../jsonFile.js';
import { durationFlag, parseDurationOption, parseIntegerOption } from '../parse.js';
import { openSigner, parseSignerSpec, signerOptionsOf } from '../signerSpec.js';
import type { Signer } from '../../main/signers/signer.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { ValidationError } from '../../main/services/errors.js';

interface AuthorizeOpts {
  wallet: string;
  agent: string;
  expiresIn?: string;
  chainId?: string;
  out?: string;
  name?: string;
  keyHint?: string;
  dryRun?: boolean;
}

const DRY_RUN_HELP = 'print what would be signed (the review, the typed data and its digest); sign and send nothing (no --signer needed)';

/** Opens the main-wallet signer after every cheap check passed, so a bad flag never asks for a password. */
async function mainSigner(g: GlobalOptions, wallet: string, ctx: ServiceContext): Promise<Signer> {
  return openSigner(parseSignerSpec(g.signer), { wallet, ...signerOptionsOf(g), paper: ctx });
}

function signerRequired(g: GlobalOptions, dryRun: boolean | undefined): void {
  // Parsed first so a missing or malformed --signer is a usage error before any network call. A dry run
  // signs nothing, so it needs none (one given is still checked).
  if (dryRun !== true || g.signer !== undefined) signerSpecUpFront(g);
}

const DAY_MS = 86_400_000;

/**
 * --expires-in (a duration of the one grammar, like every time flag) as the days the key services take;
 * past the service's maximum it is refused here, naming this flag, before anything is signed.
 */
function lifetimeDaysOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDurationOption(value, 'expires-in');
  if (ms <= 0) throw new ValidationError(`must be longer than 0s, got '${value}'`, { field: 'expires-in', code: 'INVALID_EXPIRY' });
  if (ms > MAX_KEY_LIFETIME_DAYS * DAY_MS) {
    throw new ValidationError(`'${value}' is more than the ${MAX_KEY_LIFETIME_DAYS} days the service allows`, {
      field: 'expires-in',
      code: 'INVALID_EXPIRY',
      hint: `Choose at most ${MAX_KEY_LIFETIME_DAYS}d; renew the key before it expires.`,
    });
  }
  return ms / DAY_MS;
}

/**
 * The flag --expires-in replaced: a bare number of days was the one time flag without a unit. Hidden,
 * and refused with the new spelling, so a script written for it stops with the fix instead of
 * "unknown option".
 */
function expiresInDaysReplaced(): Option {
  return new Option('--expires-in-days <days>').hideHelp().argParser((value: string) => {
    throw new ValidationError(`replaced by --expires-in, a duration with a unit: write --expires-in ${/^\d+$/.test(value) ? value : '90'}d`, { field: 'expires-in-days', code: 'USAGE' });
  });
}

export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description('trading keys (agents): create, authorize, list, revoke, renew');

  keys
    .command('new')
    .description("create a trading key in the OS keychain and print its address")
    .requiredOption('--wallet <address>', 'main wallet the key will trade for')
    .option('--name <name>', 'label (at most 64 characters)')
    .action(async (opts: { wallet: string; name?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const meta = await createTradingKey(ctx, { wallet: opts.wallet, ...(opts.name !== undefined ? { name: opts.name } : {}) });
        // Human output is the bare address, so `AGENT=$(perps keys new --wallet ...)` works.
        out.result(meta, meta.agent);
        out.note(`Authorize it with: perps keys authorize --wallet ${meta.wallet} --agent ${meta.agent} --signer SPEC`);
      });
    });

  keys
    .command('authorize')
    .description('sign AuthorizeAgent with the main wallet and register the key (or, with --out, write the signed register body)')
    .requiredOption('--wallet <address>', 'main wallet')
    .requiredOption('--agent <address>', 'trading key address')
    .option('--expires-in <duration>', `how long the key lives: a duration such as 90d or 30d12h (default ${DEFAULT_KEY_LIFETIME_DAYS}d, at most ${MAX_KEY_LIFETIME_DAYS}d)`, durationFlag('expires-in'))
    .addOption(expiresInDaysReplaced())
    .option('--chain-id <id>', 'signature chain id (default: the profile chain id)')
    .option('--out <file>', 'write the ready register body here instead of registering it (submit it later with `perps keys submit`)')
    .option('--name <name>', 'register body name (at most 64 characters)')
    .option('--key-hint <hint>', 'register body key_hint (at most 32 characters)')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: AuthorizeOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        signerRequired(g, opts.dryRun);
        const wallet = checkAddress(opts.wallet, 'wallet');
        const agent = checkAddress(opts.agent, 'agent');
        const expiresInDays = checkLifetimeDays(lifetimeDaysOf(opts.expiresIn));
        const chainId = parseIntegerOption(opts.chainId, 'chain-id');
        // With --out this is the offline half of the ceremony: nothing is fetched (see signingContextOf).
        const ctx = opts.out !== undefined ? signingContextOf(g) : contextOf(g);
        // The ceremony authorizes a key made on another machine; the review then warns that it does.
        const stored = ctx.vault.get({ environment: ctx.profile.name, wallet, agent }) !== undefined;
        const prepared = await prepareAuthorize(ctx, {
          wallet,
          agent,
          expiresInDays,
          agentOrigin: stored ? 'local' : 'foreign',
          ...(chainId !== undefined ? { chainId } : {}),
          ...(opts.name !== undefined ? { name: opts.name } : {}),
          ...(opts.keyHint !== undefined ? { keyHint: opts.keyHint } : {}),
          // The expiry counts from this machine's clock (it may have no network); `keys submit` checks it
          // against the service's clock before sending.
          ...(opts.out !== undefined ? { now: Date.now() } : {}),
        });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        for (const w of prepared.view.warnings) out.note(`warning: ${w}`);
        const signer = await mainSigner(g, wallet, ctx);
        if (opts.out !== undefined) {
          const body = await signAuthorize(prepared, signer);
          await writePrivateFile(opts.out, JSON.stringify(body, null, 2) + '\n');
          const result = { out: opts.out, wallet: body.wallet_address, agent: body.agent_wallet_address, service_environment: body.service_environment, expires_at: body.expires_at, nonce: body.nonce, submitted: false };
          out.result(result, () => `Signed register body written to ${opts.out} (expires ${formatTime(body.expires_at)} by this machine's clock). Submit it with: perps keys submit ${opts.out}`);
          return;
        }
        const r = await submitAuthorize(ctx, prepared, signer);
        out.result(r, () =>
          formatFields([
            ['authorized', r.agent],
            ['wallet', r.wallet],
            ['environment', r.environment],
            ['expires', formatTime(r.expires_at)],
            ['stored here', r.stored_locally ? 'yes' : 'no (its private key is not in this data folder)'],
          ]),
        );
      });
    });

  keys
    .command('submit')
    .description('register a body written by `perps keys authorize --out`')
    .argument('<file>', 'register body (JSON)')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const raw = await readJsonFile(file, { what: 'a JSON register body', field: 'file', code: 'INVALID_REGISTER_BODY' });
        const ctx = contextOf(g);
        const r = await submitRegisterBody(ctx, raw);
        out.result(r, () =>
          formatFields([
            [r.already_registered ? 'already registered' : 'authorized', r.agent],
            ['wallet', r.wallet],
            ['expires', formatTime(r.expires_at)],
            ['stored here', r.stored_locally ? 'yes' : 'no (its private key is not in this data folder)'],
          ]),
        );
      });
    });

  keys
    .command('list')
    .description('trading keys of a wallet: stored here and/or listed by the service')
    .requiredOption('--wallet <address>', 'main wallet')
    .action(async (opts: { wallet: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const list = await listTradingKeys(contextOf(g), opts.wallet);
        out.result(list, () =>
          formatTable<TradingKeyRow>(
            list.keys,
            [
              { header: 'AGENT', value: (k) => k.agent },
              { header: 'NAME', value: (k) => k.name ?? '' },
              { header: 'STATUS', value: (k) => k.status },
              { header: 'EXPIRES', value: (k) => formatTime(k.expires_at) },
              { header: 'HERE', value: (k) => (k.stored_locally ? 'yes' : 'no') },
            ],
            `no trading keys for ${list.wallet} in ${list.environment}`,
          ),
        );
      });
    });

  keys
    .command('revoke')
    .description('revoke a trading key (RevokeAgent signed by the main wallet); deletes the local copy')
    .requiredOption('--wallet <address>', 'main wallet')
    .requiredOption('--agent <address>', 'trading key address')
    .option('--chain-id <id>', 'signature chain id (default: the profile chain id)')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; agent: string; chainId?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        signerRequired(g, opts.dryRun);
        const wallet = checkAddress(opts.wallet, 'wallet');
        checkAddress(opts.agent, 'agent');
        const chainId = parseIntegerOption(opts.chainId, 'chain-id');
        const ctx = contextOf(g);
        const prepared = await prepareRevoke(ctx, { wallet, agent: opts.agent, ...(chainId !== undefined ? { chainId } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        const signer = await mainSigner(g, wallet, ctx);
        const r = await submitRevoke(ctx, prepared, signer);
        out.result(r, () => `revoked ${r.agent} for ${r.wallet}${r.deleted_locally ? ' (local copy deleted)' : ''}`);
      });
    });

  keys
    .command('renew')
    .description('re-register a stored trading key to refresh its expiry')
    .requiredOption('--wallet <address>', 'main wallet')
    .requiredOption('--agent <address>', 'trading key address')
    .option('--expires-in <duration>', `new lifetime from now: a duration such as 90d or 30d12h (default ${DEFAULT_KEY_LIFETIME_DAYS}d, at most ${MAX_KEY_LIFETIME_DAYS}d)`, durationFlag('expires-in'))
    .addOption(expiresInDaysReplaced())
    .option('--chain-id <id>', 'signature chain id (default: the profile chain id)')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; agent: string; expiresIn?: string; chainId?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        signerRequired(g, opts.dryRun);
        const wallet = checkAddress(opts.wallet, 'wallet');
        checkAddress(opts.agent, 'agent');
        const expiresInDays = checkLifetimeDays(lifetimeDaysOf(opts.expiresIn));
        const chainId = parseIntegerOption(opts.chainId, 'chain-id');
        const ctx = contextOf(g);
        const prepared = await prepareRenew(ctx, { wallet, agent: opts.agent, expiresInDays, ...(chainId !== undefined ? { chainId } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        const signer = await mainSigner(g, wallet, ctx);
        const r = await submitRenew(ctx, prepared, signer);
        out.result(r, () => `renewed ${r.agent}: expires ${formatTime(r.expires_at)} (was ${formatTime(r.previous_expires_at)})`);
      });
    });
}
