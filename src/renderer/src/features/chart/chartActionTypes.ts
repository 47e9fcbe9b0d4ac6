/**
 * What a chart action is (ChartTrading decides it, ChartActionDialogs reviews it, uiStore holds the
 * pending one): types only, so the store and the dialogs do not import each other.
 */
import type { ListedOrderView, PositionView } from '../../../../shared/ipc';

/** An order drawn as a chart line, with the bracket legs that wait for it. */
export type LineOrder = ListedOrderView & { legs?: readonly ListedOrderView[] };

export type ChartAction =
  | { kind: 'modify'; order: LineOrder; price: string; trigger?: string; key: string }
  | { kind: 'cancel'; order: LineOrder }
  | { kind: 'tpsl'; position: PositionView; level: 'tp' | 'sl'; price: string; key: string };
