/**
 * The ticket's parts that are not on its first frame, in one chunk loaded right after that frame
 * (OrderTicket.tsx, lib/afterFirstPaint.ts): the order review and the TWAP review dialogs, which open on
 * submit, and the scale and TWAP fields, which show when those kinds are picked.
 */
export { OrderPreviewDialog } from './OrderPreviewDialog';
export { ScaleSection } from './ScaleSection';
export { TwapReviewDialog } from '../twap/TwapReviewDialog';
export { TwapSection } from '../twap/TwapSection';
