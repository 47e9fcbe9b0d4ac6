/**
 * The floor of the first-screen bench: a minimal React page rendering the order ticket's form (its side,
 * type, price, size, leverage and reduce-only fields and its submit button, with no data and no styles),
 * built with the same Vite and React as the app. The app's ticket shows more than this (time in force, the
 * scale and TWAP kinds, field hints): the floor is what any order form costs, not a copy of the app's.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function MinimalTicket() {
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [type, setType] = useState('Market');
  const [price, setPrice] = useState('');
  const [size, setSize] = useState('');
  const [leverage, setLeverage] = useState(1);
  return (
    <form aria-label="Order ticket" onSubmit={(e) => e.preventDefault()}>
      <div role="radiogroup" aria-label="Side">
        <button type="button" role="radio" aria-checked={side === 'buy'} onClick={() => setSide('buy')}>Buy / Long</button>
        <button type="button" role="radio" aria-checked={side === 'sell'} onClick={() => setSide('sell')}>Sell / Short</button>
      </div>
      <div role="radiogroup" aria-label="Order type">
        {['Market', 'Limit', 'Trigger (TP/SL)'].map((t) => (
          <button key={t} type="button" role="radio" aria-checked={type === t} onClick={() => setType(t)}>{t}</button>
        ))}
      </div>
      <label>Limit price <input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} /></label>
      <label>Size (BTC) <input inputMode="decimal" value={size} onChange={(e) => setSize(e.target.value)} /></label>
      {['25%', '50%', '75%', '100%'].map((p) => (
        <button key={p} type="button">{p}</button>
      ))}
      <label>Leverage <input type="range" min={1} max={40} value={leverage} onChange={(e) => setLeverage(Number(e.target.value))} /></label>
      <label><input type="checkbox" /> Reduce-only</label>
      <label><input type="checkbox" /> Attach take-profit / stop-loss</label>
      <button type="submit">{side === 'buy' ? 'Buy / Long' : 'Sell / Short'} BTC</button>
    </form>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MinimalTicket />
  </StrictMode>,
);
