/**
 * Response shapes the spec leaves open ("not shown") but the client must rely on, validated with zod.
 * Each schema requires only what the client uses and lets the rest through (looseObject), so a service
 * that adds fields keeps working while one that drops a needed field fails loudly with a DecodeError.
 * The shapes the spec does show (quote, encode, orders, points) live in src/shared/protocol.
 */
import { z } from 'zod';
import { BridgeEncodeResponseSchema, integerString } from '../../../shared/protocol/index.js';

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x address');
const hexData = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex data');
/** Wei as a decimal integer string or a 0x quantity: the spec shows neither format for `value`. */
const weiValue = z.string().regex(/^((0|[1-9]\d*)|0x[0-9a-fA-F]+)$/, 'expected a wei amount (integer string or 0x quantity)');

/** A transaction handed out ready to sign: only these three fields (spec, POST /encode). */
export const PreparedTxSchema = z.object({ to: hexAddress, value: weiValue, data: hexData });
export type PreparedTx = z.infer<typeof PreparedTxSchema>;

/** POST /encode, with its three transaction fields checked as an address, wei and hex data. */
export const EncodeResponseSchema = BridgeEncodeResponseSchema.extend({ data: PreparedTxSchema });
export type EncodeResponse = z.infer<typeof EncodeResponseSchema>;

/**
 * GET {aggregator_url}/<chain>/swap. The spec names the query only; the client needs the transaction to
 * send and, to show the user, the output amounts when present.
 */
export const SwapQuoteSchema = z.looseObject({
  tx: PreparedTxSchema,
  amountOut: integerString.optional(),
  minAmountOut: integerString.optional(),
});
export type SwapQuote = z.infer<typeof SwapQuoteSchema>;

/** Chat completions: the assistant reads the first choice's text and the usage. */
export const ChatCompletionSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int(),
        message: z.looseObject({ role: z.string(), content: z.string().nullable() }),
        finish_reason: z.string().nullable(),
      }),
    )
    .min(1),
  usage: z.looseObject({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() }).optional(),
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

export const ModelListSchema = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });
export type ModelList = z.infer<typeof ModelListSchema>;

export const VideoSchema = z.looseObject({ id: z.string(), status: z.string() });
export type Video = z.infer<typeof VideoSchema>;
