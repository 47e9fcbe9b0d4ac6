/** The readable review of one custody signature (keys, withdrawals): what the dialog shows before signing. */
import type { TypedData } from '../../../shared/eip712/index.js';
import type { SigningReview } from '../../../shared/ipc.js';
import { typedDataView } from '../../../shared/signingViews.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import type { Signer } from '../../signers/signer.js';
import { digestHex } from '../../services/signing/prepared.js';

export function signingReview(id: string, validUntil: number, signer: Pick<Signer, 'kind' | 'address'>, typed: TypedData, warnings: readonly string[] = []): SigningReview {
  return {
    review_id: id,
    primary_type: typed.primaryType,
    signer: { kind: signer.kind, address: signer.address },
    summary: summarizeTypedData(typed),
    warnings: [...warnings],
    digest: digestHex(typed),
    typed_data: typedDataView(typed),
    valid_until: validUntil,
  };
}
