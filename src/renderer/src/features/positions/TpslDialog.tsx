/**
 * TP/SL on a position: set, move or remove its whole-position take-profit and stop-loss. The fields start
 * at the armed levels; "Review changes" asks main to prepare exactly the changes (positions:previewTpsl:
 * checked against the mark, typed data built) and shows them in words, before and after, with what will
 * be signed; "Sign and apply" applies that review (positions:applyTpsl) and shows each change's outcome.
 * A level on the wrong side of the mark is refused by main with its reason, shown at its field, and
 * nothing changes.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { IpcRequest, MarketView, PositionTpslPreview, PositionTpslResult, PositionView } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { IpcQueryError, perps, unwrap } from '../../ipc/client';
import { dec, fmt, placesOfStep } from '../../lib/decimal';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useLiveMark } from '../markets/live';
import { TypedDataTable } from '../signing/SigningReviewView';
import { initialTpslFields, KIND_NAME, tpslRequest, wrongSideWarning, type TpslFields, type TpslKind } from './tpslModel';
import { TrailingField } from './TrailingField';
import { useInvalidateTrading } from './useInvalidateTrading';

const LABEL: Record<TpslKind, string> = { tp: 'Take-profit trigger', sl: 'Stop-loss trigger' };
const STATUS_TONE: Record<string, 'buy' | 'sell' | 'warn' | undefined> = { done: 'buy', rejected: 'sell', dropped: 'warn', pending: 'warn', unknown: 'warn' };

function LevelField({ kind, position, fields, setField, mark, places, error }: { kind: TpslKind; position: PositionView; fields: TpslFields; setField: (kind: TpslKind, v: string) => void; mark: string | null; places: number; error: string | undefined }) {
  const armed = position[kind];
  const long = position.side === 'LONG';
  const above = (kind === 'tp') === long;
  const value = fields[kind];
  return (
    <TextField
      label={LABEL[kind]}
      inputMode="decimal"
      value={value}
      placeholder={`none · ${above ? 'above' : 'below'} the mark`}
      onChange={(e) => setField(kind, e.target.value)}
      suffix={
        value.trim() !== '' ? (
          <button type="button" className="link-btn" onClick={() => setField(kind, '')} aria-label={`Remove the ${KIND_NAME[kind]}`}>
            {armed ? 'Remove' : 'Clear'}
          </button>
        ) : undefined
      }
      error={error}
      warning={wrongSideWarning(kind, value, mark, position.side)}
      hint={
        armed
          ? `Armed at ${fmt(armed.trigger_price, { places })} (fires at market, no worse than ${fmt(armed.limit_price, { places })}). Change it to move it; empty removes it.`
          : `None armed. ${above ? 'Above' : 'Below'} the mark for a ${long ? 'long' : 'short'}; closes the whole position at market.`
      }
    />
  );
}

function Review({ preview, places }: { preview: PositionTpslPreview; places: number }) {
  const level = (v: string | null) => (v === null ? 'none' : fmt(v, { places }));
  return (
    <>
      <section className="leg-card" aria-label="TP/SL changes">
        <h3>Changes</h3>
        <ul className="summary-lines">
          {preview.changes.map((c) => (
            <li key={`${c.kind}-${c.action}`}>
              <Badge tone={c.action === 'remove' ? 'warn' : 'info'}>{c.action}</Badge> {c.summary}
            </li>
          ))}
        </ul>
      </section>
      <KVList label="Before and after">
        <KV k="Take-profit">
          {level(preview.before.tp?.trigger_price ?? null)} → {level(preview.after.tp)}
        </KV>
        <KV k="Stop-loss">
          {level(preview.before.sl?.trigger_price ?? null)} → {level(preview.after.sl)}
        </KV>
        <KV k="Checked against the mark">{fmt(preview.mark, { places })}</KV>
        <KV k="Position">
          {preview.side} {fmt(dec(preview.size)?.abs() ?? preview.size)} {preview.market} @ {fmt(preview.entry_price, { places })}
        </KV>
        <KV k="Signed by your trading key">
          <span className="addr" title={preview.signer}>
            {preview.signer.slice(0, 6)}…{preview.signer.slice(-4)}
          </span>
        </KV>
      </KVList>
      {preview.warnings.map((w) => (
        <p key={w} className="notice notice-warn" role="status">
          {w}
        </p>
      ))}
      <details className="signing-details">
        <summary>Signing details: {preview.requests.length} signature{preview.requests.length === 1 ? '' : 's'}, typed data and digests</summary>
        {preview.requests.map((r) => (
          <section key={r.digest} className="signing-leg" aria-label={`${r.label} signing details`}>
            <h4>{r.label}</h4>
            <TypedDataTable data={r.typed_data} />
            <div className="kv">
              <dt>Digest</dt>
              <dd className="addr">{r.digest}</dd>
            </div>
          </section>
        ))}
      </details>
    </>
  );
}

function Outcome({ result, places }: { result: PositionTpslResult; places: number }) {
  return (
    <section className="leg-card" aria-label="TP/SL result">
      <h3>{result.ok ? 'Applied' : 'Not all changes went through'}</h3>
      <ul className="summary-lines">
        {result.changes.map((c) => (
          <li key={`${c.kind}-${c.action}`}>
            <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge> {c.summary}
            {c.to && c.action !== 'remove' ? <span className="faint"> (trigger {fmt(c.to, { places })})</span> : null}
            {c.reason && <span className="sell"> — {explainReason(c.reason)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `initial`: levels to start from instead of the armed ones (a line dragged on the chart). */
export function TpslDialog({ position, market, onClose, initial }: { position: PositionView; market: MarketView | undefined; onClose: () => void; initial?: Partial<TpslFields> }) {
  const refresh = useInvalidateTrading();
  const mark = useLiveMark(market) ?? position.mark;
  const places = market ? placesOfStep(market.tick_size) : 2;
  const [fields, setFields] = useState<TpslFields>(() => ({ ...initialTpslFields(position), ...initial }));
  const [preview, setPreview] = useState<PositionTpslPreview | null>(null);
  const review = useMutation({
    mutationFn: (req: IpcRequest<'positions:previewTpsl'>) => unwrap(perps().positions.previewTpsl(req)),
    onSuccess: setPreview,
  });
  const apply = useMutation({
    mutationFn: (p: PositionTpslPreview) => unwrap(perps().positions.applyTpsl({ preview_id: p.preview_id })),
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: r.ok ? 'success' : 'warn', title: `TP/SL ${r.ok ? 'updated' : 'partly updated'} · ${r.market}`, body: r.changes.map((c) => `${c.summary}: ${c.status}`).join(' · ') });
    },
  });
  const setField = (kind: TpslKind, v: string) => {
    setFields((f) => ({ ...f, [kind]: v }));
    if (review.error) review.reset();
  };
  const request = tpslRequest(position, fields);
  const expired = apply.error instanceof IpcQueryError && apply.error.code === 'REVIEW_EXPIRED';
  const busy = review.isPending || apply.isPending;
  const result = apply.data;

  let footer;
  if (result) {
    footer = (
      <Button variant="primary" onClick={onClose}>
        Done
      </Button>
    );
  } else if (preview) {
    footer = (
      <>
        <span className="grow muted" style={{ fontSize: 'var(--fs-sm)' }}>
          Review valid for <Countdown at={preview.valid_until} warnWithinMs={10_000} />
        </span>
        <Button
          variant="ghost"
          disabled={apply.isPending}
          onClick={() => {
            setPreview(null);
            apply.reset();
          }}
        >
          Back
        </Button>
        <Button variant="primary" busy={apply.isPending} disabled={expired} onClick={() => apply.mutate(preview)}>
          {expired ? 'Review expired — go back and review again' : 'Sign and apply'}
        </Button>
      </>
    );
  } else {
    footer = (
      <>
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="primary" busy={review.isPending} disabled={request === null} title={request === null ? 'Nothing to change yet' : undefined} onClick={() => request && review.mutate(request)}>
          Review changes
        </Button>
      </>
    );
  }

  return (
    <Dialog open title={`TP/SL · ${position.market} ${position.side.toLowerCase()}`} name={`TP/SL on ${position.market} position`} onClose={onClose} locked={busy} width={540} footer={footer}>
      {result ? (
        <Outcome result={result} places={places} />
      ) : preview ? (
        <>
          <Review preview={preview} places={places} />
          {apply.error && <ErrorLine error={apply.error} />}
        </>
      ) : (
        <>
          <KVList label="Position">
            <KV k="Position">
              {position.side} {fmt(dec(position.size)?.abs() ?? position.size)} {position.market} @ {fmt(position.entry_price, { places })}
            </KV>
            <KV k="Mark">{fmt(mark, { places })}</KV>
          </KVList>
          {(['tp', 'sl'] as const).map((kind) => (
            <LevelField key={kind} kind={kind} position={position} fields={fields} setField={setField} mark={mark} places={places} error={fieldError(review.error, [kind])} />
          ))}
          <p className="muted">
            Whole-position triggers: when the mark reaches a level, the whole position closes at market (reduce-only). Levels are judged against the current mark,
            not the entry.
          </p>
          {review.error && !isShownAtField(review.error, [['tp'], ['sl']]) && <ErrorLine error={review.error} />}
          <TrailingField position={position} disabled={busy} />
        </>
      )}
    </Dialog>
  );
}
