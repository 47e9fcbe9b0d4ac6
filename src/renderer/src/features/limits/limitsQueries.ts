/** The wallet's risk limits (risk:getLimits, kept current by main's riskLimits event). */
import { useQuery } from '@tanstack/react-query';
import { perps, unwrap } from '../../ipc/client';

export const limitsKey = ['risk', 'limits'] as const;

export const useLimits = (enabled = true) => useQuery({ queryKey: limitsKey, queryFn: () => unwrap(perps().risk.getLimits()), enabled, retry: false });
