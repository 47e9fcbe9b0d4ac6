/**
 * What will be signed, exactly: the signer, the plain-language summary main wrote, every member of the
 * EIP-712 message in signing order, the domain (chain id included), the digest, and what the signer's
 * device (if any) will show. The acting channel signs only this reviewed digest.
 */
import type { SigningReview, TypedDataView } from '../../../../shared/ipc';
import { Badge } from '../../ui/Badge';
import { Countdown } from '../../ui/Countdown';
import { fmt } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';

type SignerKind = SigningReview['signer']['kind'];

const SIGNER_LABEL: Record<SignerKind, string> = {
  keystore: 'Keystore (main wallet)',
  env: 'Environment key (main wallet)',
  offline: 'Offline signer (main wallet)',
  ledger: 'Ledger (main wallet)',
  trezor: 'Trezor (main wallet)',
  paper: 'Paper wallet (simulator, this computer’s keychain)',
  'trading-key': 'Trading key (this computer’s keychain)',
};

/** Members whose uint256 value is a Unix-ms time, shown with a date beside the raw number. */
const TIME_MEMBERS = new Set(['expiresAt', 'nonce']);

function memberDisplay(primaryType: string, name: string, value: string | boolean): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (TIME_MEMBERS.has(name) && /^\d{12,14}$/.test(value)) return `${value}  (${fmtDateTime(Number(value))})`;
  if (primaryType === 'Withdraw' && name === 'amount' && /^\d+$/.test(value)) {
    // Withdraw.amount is uint256 USDC base units (6 decimals); show the whole-USDC reading beside it.
    return `${value}  (= ${fmt(value.length > 6 ? `${value.slice(0, -6)}.${value.slice(-6)}` : `0.${value.padStart(6, '0')}`)} USDC)`;
  }
  return value === '' ? '"" (empty)' : value;
}

export function TypedDataTable({ data }: { data: TypedDataView }) {
  const order = data.types[data.primaryType]?.map((f) => f) ?? Object.keys(data.message).map((name) => ({ name, type: '' }));
  return (
    <table className="dt typed-data" aria-label="Typed data to sign">
      <tbody>
        <tr>
          <th scope="row">domain</th>
          <td className="num">
            {data.domain.name} · version {data.domain.version} · chain id {data.domain.chainId}
          </td>
        </tr>
        <tr>
          <th scope="row">action</th>
          <td className="num">{data.primaryType}</td>
        </tr>
        {order.map((f) => (
          <tr key={f.name}>
            <th scope="row">
              {f.name}
              {f.type && <span className="faint"> ({f.type})</span>}
            </th>
            <td className="num" style={{ whiteSpace: 'normal', wordBreak: 'break-all' }}>
              {memberDisplay(data.primaryType, f.name, data.message[f.name] ?? '')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DeviceDisplay({ review }: { review: SigningReview }) {
  const kind = review.signer.kind;
  const members = review.typed_data.types[review.typed_data.primaryType]?.map((f) => f.name) ?? [];
  let text: string;
  switch (kind) {
    case 'ledger':
      text = `Your Ledger shows “Review typed message”: domain ${review.typed_data.domain.name}, chain id ${review.typed_data.domain.chainId}, then ${review.typed_data.primaryType} with ${members.join(', ')}. Check each value against this screen before approving. If the Ethereum app cannot clear-sign it, you will be asked to allow blind signing and shown the hashes to compare with the device.`;
      break;
    case 'trezor':
      text = `Your Trezor shows the address, then the domain (${review.typed_data.domain.name}, chain id ${review.typed_data.domain.chainId}), then ${review.typed_data.primaryType} with ${members.join(', ')}, and finally “Confirm typed data”. Check each value against this screen before approving. A Trezor Model One shows only the two hashes, which you will be shown here first to compare.`;
      break;
    case 'offline':
      text = `Your offline signer receives this ${review.typed_data.primaryType} typed data (eth_signTypedData_v4). Compare the digest it displays with the digest below before signing.`;
      break;
    case 'trading-key':
      text = 'Signed by the trading key stored in this computer’s keychain. No device prompt.';
      break;
    default:
      text = 'Signed on this computer with your main wallet’s key. No device prompt.';
  }
  return (
    <div className="notice notice-info" aria-label="What the device will display">
      <strong>What the device will display. </strong>
      {text}
    </div>
  );
}

export function SigningReviewView({ review, title }: { review: SigningReview; title?: string }) {
  return (
    <div className="stack" aria-label={title ?? 'Signing review'}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <div className="row">
          <Badge tone="accent">{review.primary_type}</Badge>
          <span className="muted">signed by</span>
          <span>{SIGNER_LABEL[review.signer.kind]}</span>
        </div>
        <span className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
          valid for <Countdown at={review.valid_until} warnWithinMs={15_000} />
        </span>
      </div>
      <dl className="kv">
        <dt>Signer address</dt>
        <dd className="addr">{review.signer.address}</dd>
      </dl>
      {review.warnings.map((w) => (
        <p key={w} className="notice notice-warn" role="alert">
          {w}
        </p>
      ))}
      {review.summary.length > 0 && (
        <ul className="summary-lines" aria-label="Summary">
          {review.summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <TypedDataTable data={review.typed_data} />
      <dl className="kv">
        <dt>EIP-712 digest</dt>
        <dd className="addr">{review.digest}</dd>
      </dl>
      <DeviceDisplay review={review} />
    </div>
  );
}
