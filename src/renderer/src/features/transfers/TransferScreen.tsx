/**
 * The frame of the Bridge and Swap views: the title, then the companion settings both forms are built from
 * (chains, the native token's placeholder, slippage defaults, the partner code), read once here so each view
 * lays out only its own workspace.
 */
import type { ReactNode } from 'react';
import type { CompanionSettingsView } from '../../../../shared/ipc';
import { useCompanionSettings } from '../../ipc/companionQueries';
import { ErrorState, Loading } from '../../ui/States';

export function TransferScreen({ title, summary, children }: { title: string; summary: string; children: (settings: CompanionSettingsView) => ReactNode }) {
  const settings = useCompanionSettings();
  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>{title}</h1>
        <span className="muted">{summary}</span>
      </div>
      {settings.isPending && <Loading label="Loading chains" />}
      {settings.error && <ErrorState error={settings.error} title="Could not read the companion settings" onRetry={() => void settings.refetch()} />}
      {settings.data && children(settings.data)}
    </div>
  );
}
