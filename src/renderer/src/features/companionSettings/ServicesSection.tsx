/** The companion services' roots (bridge, points platform, aggregator, inference) and the app's partner code. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CompanionSettingsView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { cqk } from '../../ipc/companionQueries';
import { fieldError } from '../../lib/fieldErrors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { UrlCell, UrlSourceBadge } from './UrlCell';

type Service = CompanionSettingsView['services'][number];

const SERVICE_TEXT: Record<Service['service'], { name: string; what: string }> = {
  bridge: { name: 'Bridge', what: 'quotes, encodes and tracks bridge transfers' },
  platform: { name: 'Platform', what: 'points: estimates and credited points' },
  aggregator: { name: 'Aggregator', what: 'swap quotes and transactions' },
  inference: { name: 'Inference', what: 'the assistant’s language models' },
};

export function ServiceUrlsSection({ services }: { services: Service[] }) {
  const client = useQueryClient();
  /** The service whose URL is being edited. */
  const [editing, setEditing] = useState<Service['service'] | null>(null);
  const save = useMutation({
    mutationFn: (v: { service: Service['service']; url: string }) => unwrap(perps().companion.setServiceUrl(v)),
    onSuccess: (s, v) => {
      client.setQueryData(cqk.settings, s);
      // Another service answers now: what was read from the old one is stale.
      void client.invalidateQueries({ queryKey: v.service === 'inference' ? ['assistant'] : v.service === 'platform' ? ['points'] : ['bridge'] });
      setEditing(null);
      pushToast({ tone: 'success', title: `${SERVICE_TEXT[v.service].name} URL saved` });
    },
  });
  return (
    <section className="stack" aria-labelledby="service-urls-title">
      <h3 id="service-urls-title">Service URLs</h3>
      <table className="dt" aria-label="Service URLs">
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col">URL</th>
            <th scope="col">Source</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {services.map((s) => {
            const isEditing = editing === s.service;
            const text = SERVICE_TEXT[s.service];
            return (
              <tr key={s.service} aria-label={`${text.name} service`} className={isEditing ? 'row-edit' : undefined}>
                <td title={text.what}>
                  <span className="strong">{text.name}</span>
                </td>
                <td className="url-cell">
                  <UrlCell
                    url={s.url}
                    editing={isEditing}
                    label={`${text.name} service URL`}
                    applyLabel={`Apply ${text.name} service URL`}
                    initial={s.url ?? ''}
                    onApply={(url) => save.mutate({ service: s.service, url })}
                    onCancel={() => setEditing(null)}
                    onType={() => save.reset()}
                    applying={save.isPending}
                    error={save.variables?.service === s.service ? save.error : null}
                  />
                </td>
                <td>
                  <UrlSourceBadge source={s.source} />
                </td>
                <td className="r">
                  {!isEditing && (
                    <Button size="sm" variant="ghost" aria-label={`Edit ${text.name} service URL`} onClick={() => setEditing(s.service)}>
                      Edit
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {save.error && !editing && <ErrorLine error={save.error} />}
    </section>
  );
}

export function PartnerCodeSection({ code }: { code: string | null }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(code ?? '');
  const save = useMutation({
    mutationFn: (c: string) => unwrap(perps().companion.setPartnerCode({ code: c })),
    onSuccess: (s) => {
      client.setQueryData(cqk.settings, s);
      setDraft(s.partner_code ?? '');
      void client.invalidateQueries({ queryKey: ['points'] });
      pushToast({ tone: 'success', title: 'Partner code set', body: s.partner_code ?? undefined });
    },
  });
  const d = draft.trim();
  const problem = d === '' ? undefined : /\s/.test(d) ? 'No spaces' : d.length > 64 ? 'At most 64 characters' : undefined;
  return (
    <form
      className="stack"
      aria-label="Partner code"
      onSubmit={(e) => {
        e.preventDefault();
        if (d && !problem) save.mutate(d);
      }}
    >
      <h3>Partner code</h3>
      <TextField
        label="Partner code"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="none"
        error={problem ?? fieldError(save.error, ['code', 'partner_code', 'source'])}
        hint={code ? `Current: ${code}. Sent with bridges and swaps; earns its bonus points.` : 'Sent with bridges and swaps; earns its bonus points.'}
      />
      {save.error && !fieldError(save.error, ['code', 'partner_code', 'source']) && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" disabled={!d || !!problem || d === code} busy={save.isPending}>
          Set partner code
        </Button>
      </div>
    </form>
  );
}
