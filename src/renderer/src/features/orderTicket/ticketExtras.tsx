/**
 * The ticket's parts that are not on its first frame, in one chunk loaded right after that frame
 * (OrderTicket.tsx, lib/afterFirstPaint.ts): the order, TWAP, OCO and chase review dialogs, which open on
 * submit, and the scale, TWAP, OCO and chase fields, which show when those kinds are picked.
 */
export { OrderPreviewDialog } from './OrderPreviewDialog';
export { ScaleSection } from './ScaleSection';
export { TwapReviewDialog } from '../twap/TwapReviewDialog';
export { TwapSection } from '../twap/TwapSection';
export { OcoReviewDialog } from '../oco/OcoReviewDialog';
export { OcoSection } from '../oco/OcoSection';
export { ChaseReviewDialog } from '../chase/ChaseReviewDialog';
export { ChaseSection } from '../chase/ChaseSection';
