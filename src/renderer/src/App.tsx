import { useEffect, useState } from 'react';
import type { AppInfo, IpcError } from '../../shared/ipc';

/** The app frame; the trading views arrive with the desktop-app issue. */
export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<IpcError | null>(null);

  useEffect(() => {
    window.perps.app.getInfo().then(
      (r) => (r.ok ? setInfo(r.value) : setError(r.error)),
      (e: unknown) => setError({ code: 'IPC', message: String(e) }),
    );
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', color: '#e6e6e6', background: '#0b0e14', minHeight: '100vh', padding: 24 }}>
      <h1>Perps Desk</h1>
      {error && <p role="alert">Could not reach the app core: {error.message}</p>}
      {!error && !info && <p>Loading…</p>}
      {info && (
        <p>
          {info.name} {info.version} · profile <strong>{info.profile}</strong>
          {info.profile === 'sim' && ' (paper trading on the local simulator, no funds at risk)'}
        </p>
      )}
    </main>
  );
}
