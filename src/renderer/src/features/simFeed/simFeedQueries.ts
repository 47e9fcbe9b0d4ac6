/** The simulator's price source (settings:getSimPrices) and its live feed (settings:getSimFeed, kept current by the simFeed event). */
import { useQuery } from '@tanstack/react-query';
import { perps, unwrap } from '../../ipc/client';

export const simPricesKey = ['settings', 'simPrices'] as const;
export const simFeedKey = ['settings', 'simFeed'] as const;

export const useSimPrices = () => useQuery({ queryKey: simPricesKey, queryFn: () => unwrap(perps().settings.getSimPrices()) });
export const useSimFeed = () => useQuery({ queryKey: simFeedKey, queryFn: () => unwrap(perps().settings.getSimFeed()) });
