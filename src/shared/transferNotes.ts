/**
 * Codes of a transfer's `poll_error` note (TransferView) that main sets and the renderer words apart, kept
 * here so both read the same string. Pure constants: the renderer imports this without pulling in zod.
 */

/**
 * The source transaction was broadcast but its receipt was not confirmed (the wait timed out, the RPC went
 * away): main follows the bridge order anyway and keeps this note until the bridge lists the order.
 */
export const RECEIPT_UNCONFIRMED = 'RECEIPT_UNCONFIRMED';
