/** One QueryClient for the app. Live data arrives by events, so focus refetching is off. */
import { QueryClient } from '@tanstack/react-query';
import { isRetryable } from './client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, err) => count < 2 && isRetryable(err),
        retryDelay: (n) => Math.min(300 * 2 ** n, 2000),
        refetchOnWindowFocus: false,
        staleTime: 2_000,
      },
      mutations: { retry: false },
    },
  });
}
