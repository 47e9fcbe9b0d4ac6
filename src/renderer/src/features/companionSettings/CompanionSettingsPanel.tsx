/** Settings → Companion services: per-chain JSON-RPC URLs, the partner code, the receiver allowlist and the services' URLs. */
import { useCompanionSettings } from '../../ipc/companionQueries';
import { Panel } from '../../ui/Panel';
import { ErrorState, Loading } from '../../ui/States';
import { ReceiversSection } from './ReceiversSection';
import { RpcUrlsSection } from './RpcUrlsSection';
import { PartnerCodeSection, ServiceUrlsSection } from './ServicesSection';

export function CompanionSettingsPanel() {
  const settings = useCompanionSettings();
  return (
    <Panel title="Companion services">
      <div className="section">
        <p className="muted">Bridging, swaps, points and the assistant talk to these services and chains. Stored per profile; an environment variable overrides a stored value.</p>
        {settings.isPending && <Loading />}
        {settings.error && <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />}
        {settings.data && (
          <>
            <RpcUrlsSection chains={settings.data.chains} />
            <PartnerCodeSection key={settings.data.partner_code ?? ''} code={settings.data.partner_code} />
            <ReceiversSection />
            <ServiceUrlsSection services={settings.data.services} />
          </>
        )}
      </div>
    </Panel>
  );
}
