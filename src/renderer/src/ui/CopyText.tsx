import { pushToast } from './toast';

/** A value to hand on elsewhere (a transaction hash, an address): shown in full, with a copy button. */
export function CopyText({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      pushToast({ tone: 'success', title: `Copied ${label}`, body: text });
    } catch (err) {
      pushToast({ tone: 'error', title: `Could not copy ${label}`, body: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <span className="copy-text">
      <span className="addr">{text}</span>
      <button type="button" className="link-btn" aria-label={`Copy ${label}`} title={`Copy ${label}`} onClick={() => void copy()}>
        Copy
      </button>
    </span>
  );
}
