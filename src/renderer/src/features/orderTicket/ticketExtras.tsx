/**
 * The ticket's parts that are not on its first frame, in one chunk loaded right after that frame
 * (OrderTicket.tsx, lib/afterFirstPaint.ts): the order, TWAP and OCO review dialogs, which open on
 * submit, and the scale, TWAP and OCO fields, which show when those kinds are picked.
 */
export { OrderPreviewDialog } from './OrderPreviewDialog';
export { ScaleSection } from './ScaleSection';
export { TwapReviewDialog } from '../twap/TwapReviewDialog';
export { TwapSection } from '../twap/TwapSection';
export { OcoReviewDialog } from '../oco/OcoReviewDialog';
export { OcoSection } from '../oco/OcoSection';
