/**
 * The points a bridge or swap would earn (points:estimate), for the review dialogs. The service needs the
 * USD value of both sides; without them there is nothing to estimate and the component says so.
 */
import type { IpcRequest } from '../../../../shared/ipc';
import { goTo } from '../../app/uiStore';
import { usePointsEstimate } from '../../ipc/companionQueries';
import { fmtDateTime } from '../../lib/time';
import { fmtPoints } from '../../lib/units';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine, Loading } from '../../ui/States';

/**
 * `partnerCode` is the code the transfer carries: points are estimated for it, so without one there is
 * nothing to ask the platform (it would refuse), and the component says where to set one.
 */
export function PointsEstimate({ request, partnerCode }: { request: IpcRequest<'points:estimate'> | null; partnerCode: string | null }) {
  const estimate = usePointsEstimate(partnerCode ? request : null);
  return (
    <section className="points-estimate" aria-label="Points estimate">
      <h3>Points estimate</h3>
      {partnerCode === null ? (
        <p className="muted">
          Points are estimated for the app’s partner code, and none is set.{' '}
          <button type="button" className="link-btn" onClick={() => goTo('settings')}>
            Set one in Settings
          </button>
        </p>
      ) : request === null ? (
        <p className="muted">Give the USD value of both sides to estimate the points this earns.</p>
      ) : estimate.isPending ? (
        <Loading label="Estimating points" />
      ) : estimate.error ? (
        <ErrorLine error={estimate.error} />
      ) : (
        <KVList>
          <KV k="Base points">{fmtPoints(estimate.data.point)}</KV>
          <KV k={`Partner bonus (${partnerCode})`}>{fmtPoints(estimate.data.partner_bonus)}</KV>
          <KV k="Total">{fmtPoints(estimate.data.point + estimate.data.partner_bonus)}</KV>
          <KV k="Estimated at">{fmtDateTime(estimate.data.from * 1000)}</KV>
        </KVList>
      )}
    </section>
  );
}
